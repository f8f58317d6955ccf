#!/usr/bin/env python3
"""`make docs`: the API documentation of the HubGeo library, checked.

1. Builds the library (`swift build --target HubGeo`).
2. Extracts the symbol graph of the umbrella module HubGeo with the symbols of the targets it
   re-exports (`@_exported import`, Sources/HubGeo/Exports.swift). SwiftPM's own extraction leaves
   them out, so that HubGeo's page would be empty; swift-symbolgraph-extract takes them in with
   -experimental-allowed-reexported-modules. One module, HubGeo, is what a Swift user imports, so
   its documentation is the one place to look: every public type under HubGeo, beside the catalog's
   articles (Sources/HubGeo/HubGeo.docc), whatever target declares it.
3. Fails, naming them, when a public declaration of that graph (a type, member, enum case or
   protocol requirement written in Sources/) has no doc comment.
4. Type-checks the Swift code of the catalog's articles against the library, one article as one
   main.swift (the landing page's code is Package.swift's, not the library's).
5. Runs `swift package generate-documentation --target HubGeo` (swift-docc-plugin) with that graph
   as an additional symbol graph, into .build-docs/HubGeo.doccarchive, and fails when DocC warns
   (a link to a symbol that is not public or does not exist, say), with the count.

Usage: scripts/check-docs.py [--output .build-docs]
"""
import argparse
import json
import os
import re
import subprocess
import sys



def reexported_modules(swift):
    """The targets HubGeo re-exports: its dependencies in Package.swift (`swift package dump-package`),
    the one list. Fails when Sources/HubGeo/Exports.swift does not re-export exactly those."""
    package = json.loads(subprocess.check_output([swift, "package", "dump-package"], text=True))
    umbrella = next(target for target in package["targets"] if target["name"] == "HubGeo")
    modules = sorted(dependency["byName"][0] for dependency in umbrella["dependencies"] if "byName" in dependency)
    with open("Sources/HubGeo/Exports.swift", encoding="utf-8") as file:
        exported = sorted(re.findall(r"^@_exported import (\w+)$", file.read(), re.MULTILINE))
    if exported != modules:
        sys.exit("docs: Sources/HubGeo/Exports.swift re-exports " + ", ".join(exported)
                 + " but the HubGeo target of Package.swift depends on " + ", ".join(modules))
    return modules


def run(command, **kwargs):
    return subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", default=".build-docs")
    parser.add_argument("--swift", default="swift")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    reexported = reexported_modules(args.swift)

    build = run([args.swift, "build", "--target", "HubGeo"])
    if build.returncode != 0:
        sys.stdout.write(build.stdout)
        sys.exit("docs: swift build --target HubGeo failed")
    bin_path = run([args.swift, "build", "--show-bin-path"]).stdout.strip().splitlines()[-1]
    triple = os.path.basename(os.path.dirname(bin_path))
    graphs = os.path.join(args.output, "symbol-graphs")
    os.makedirs(graphs, exist_ok=True)
    for name in os.listdir(graphs):
        os.remove(os.path.join(graphs, name))
    # The C modules under the library: their module maps, as SwiftPM passes them to the compiler.
    module_maps = [os.path.join(bin_path, f"{name}.build", "module.modulemap") for name in ("CCurl", "CPOSIX", "CZlib")]
    module_maps += [os.path.join(root, ".build", "checkouts", "GRDB.swift", "Sources", "GRDBSQLite", "module.modulemap")]
    tools = os.path.dirname(os.path.realpath(subprocess.check_output(["which", args.swift], text=True).strip()))
    # What the compiler needs to load HubGeo: its modules, and the C modules' maps and headers.
    module_flags = ["-target", triple, "-I", os.path.join(bin_path, "Modules")]
    for module_map in module_maps:
        module_flags += ["-Xcc", "-fmodule-map-file=" + module_map]
    for include in ("Sources/CCurl/include", "Sources/CPOSIX/include", "Sources/CZlib/include"):
        module_flags += ["-Xcc", "-I", "-Xcc", include]
    extract = [os.path.join(tools, "swift-symbolgraph-extract"), "-module-name", "HubGeo"] + module_flags + [
        "-minimum-access-level", "public", "-output-dir", graphs,
        "-experimental-allowed-reexported-modules=" + ",".join(reexported)]
    result = run(extract)
    if result.returncode != 0:
        sys.stdout.write(result.stdout)
        sys.exit("docs: swift-symbolgraph-extract failed")

    sources = os.path.join(root, "Sources") + os.sep
    symbols = 0
    undocumented = []
    for name in sorted(os.listdir(graphs)):
        graph = json.load(open(os.path.join(graphs, name)))
        for symbol in graph["symbols"]:
            location = symbol.get("location", {}).get("uri", "")
            path = location.removeprefix("file://")
            if not path.startswith(sources):
                continue
            symbols += 1
            if not symbol.get("docComment", {}).get("lines"):
                line = symbol["location"]["position"]["line"] + 1
                undocumented.append(f"{os.path.relpath(path, root)}:{line}: {'.'.join(symbol['pathComponents'])}")
    for entry in sorted(set(undocumented)):
        print(f"{entry}: public, without a doc comment")

    catalog = os.path.join("Sources", "HubGeo", "HubGeo.docc")
    snippets = os.path.join(args.output, "snippets")
    os.makedirs(snippets, exist_ok=True)
    broken = 0
    for article in sorted(os.listdir(catalog)):
        if not article.endswith(".md") or article == "HubGeo.md":
            continue
        blocks = re.findall(r"```swift\n(.*?)```", open(os.path.join(catalog, article), encoding="utf-8").read(), re.S)
        if not blocks:
            continue
        main = os.path.join(snippets, article[:-3], "main.swift")
        os.makedirs(os.path.dirname(main), exist_ok=True)
        with open(main, "w", encoding="utf-8") as out:
            out.write("import HubGeo\n" + "\n".join(block.replace("import HubGeo\n", "") for block in blocks))
        check = run([os.path.join(tools, "swiftc"), "-typecheck"] + module_flags + [main])
        if check.returncode != 0:
            broken += 1
            sys.stdout.write(check.stdout)
            print(f"{catalog}/{article}: its Swift code does not compile against the library ({main})")

    archive = os.path.join(args.output, "HubGeo.doccarchive")
    docc = run([args.swift, "package", "--allow-writing-to-directory", args.output, "generate-documentation",
                "--target", "HubGeo", "--additional-symbol-graph-dir", graphs, "--output-path", archive])
    # SwiftPM's own notes on dependencies ("found 1 file(s) which are unhandled") are not DocC's.
    lines = docc.stdout.splitlines()
    warnings = [i for i, line in enumerate(lines)
                if re.match(r"^(\S.*: )?warning: ", line) and "which are unhandled" not in line]
    for i in warnings:
        print("\n".join(lines[i:i + 2]))
    if docc.returncode != 0:
        sys.stdout.write(docc.stdout)
        sys.exit("docs: swift package generate-documentation failed")
    print(f"docs: {symbols} public symbols, {len(set(undocumented))} without a doc comment; "
          f"{broken} articles whose code does not compile; {len(warnings)} DocC warnings; {archive}")
    if undocumented or warnings or broken:
        sys.exit(1)


if __name__ == "__main__":
    main()
