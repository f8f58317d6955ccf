#!/usr/bin/env python3
"""Checks the JSON Schemas of docs/schemas/ against real data, fixtures and mutated copies.

1. Each schema is valid against the draft 2020-12 meta-schema, every key in it has a title and a
   description (for editors), and the definitions that the Level 1 and Level 2 schemas share
   are identical.
2. Every Level 0/1/2 file under Data/ (upstream's JSON/) and Tests/Fixtures/upstream/
   (upstream's Tests/JSON/) is checked against the schema of its level (a folder that is missing or
   holds no such file fails), with Python's jsonschema (Draft202012Validator,
   no format checks) and with check-jsonschema (ECMAScript regexes, as editors use). Each must
   be accepted, except the upstream fixtures listed in MEANT_INVALID, which must be rejected.
3. Mutated copies of real files, written to a temporary folder, must be rejected by both
   validators (a missing required key, a wrong type, an out-of-range coordinate, a control
   character in a name, a bad include name, ...), and harmless ones (an unknown key, an empty
   URL, ...) accepted. When a built hubgeo is found, `hubgeo validate --format json` must agree
   with each: an error at the mutated spot (exit 1) for a rejected mutant, no error (exit 0)
   for an accepted one.

Usage: check-schemas.py [--hubgeo PATH | --no-hubgeo]
  --hubgeo PATH  the hubgeo binary (default: $HUBGEO_BIN, else <repo>/.build/debug/hubgeo)
Needs: pip install jsonschema check-jsonschema. Prints one line per case, then
"N passed, M failed"; exits 1 when a case failed.
"""
import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import namedtuple
from pathlib import Path

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, best_match
except ImportError:
    sys.exit("check-schemas.py needs jsonschema: pip install jsonschema check-jsonschema")

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = {level: REPO / "docs" / "schemas" / f"level{level}.schema.json" for level in (0, 1, 2)}
DATA_FOLDERS = [REPO / "Data", REPO / "Tests" / "Fixtures" / "upstream"]

# Upstream test fixtures (by folder/name, in Tests/Fixtures/upstream/, upstream's
# Tests/JSON/) that are meant to be invalid, and why. Every other file must be accepted.
# Fixtures that `hubgeo validate` reports with errors about something other than a file's shape
# stay valid for a schema: recursionA/B.level1.json (they include each other: a cycle is a
# property of the tree), IncludeParent.level1.json (a header that includes a file missing here);
# empty.level0.json and language.level0.json get warnings only.
MEANT_INVALID = {
    "Level0/garbage.level0.json": "not JSON (a sentence saying so)",
    "Level1/garbage.level1.json": "not JSON (a sentence saying so)",
    "Level2/garbage.level2.json": "not JSON (a sentence saying so)",
    "Level1/truncated.level1.json": "JSON cut off inside a string",
    "Level0/expertiseMissingIdString.level0.json": "an expertise without idString, which the app skips",
    "Level2/missingIdPlus.level2.json": "a club record without idPlus",
    "Level1/hierarchyDemo.level1.json": "includes childA.level1.url and childB.level1.url, not NAME.level1.json: the app skips them",
}

DELETE = object()

# A mutated copy of a file of Data/: `valid` is what both schema validators must say; `validate`
# and `at` what hubgeo validate must say (see Case); `extra` the files of Data/ copied next to it
# (a name, or a (source, target) pair).
Mutant = namedtuple("Mutant", "level base label document valid validate at extra")


class Case:
    """One file for the schema validators, with what is expected of it (and of hubgeo validate)."""

    def __init__(self, group, label, path, level, valid, reason="", validate=None, at=None, note=""):
        self.group = group          # "file", "mutant" or "limit"
        self.label = label
        self.path = path
        self.level = level
        self.valid = valid          # what both schema validators must say
        self.reason = reason
        self.validate = validate    # None: not checked; "clean": no error; "warning": no error, a warning at `at`;
                                    # "error": an error at `at` (exit 1)
        self.at = at                # the JSON path where validate must report the error
        self.note = note


def level_of(path):
    for level in (0, 1, 2):
        if path.name.lower().endswith(f".level{level}.json"):
            return level
    return None


def display(path):
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def strict_json(text):
    """JSON as hubgeo reads it: UTF-8, no NaN or Infinity."""
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text.decode("utf-8"), parse_constant=refuse)


# MARK: - Mutations

def mutate(document, path, value=DELETE):
    """A copy of `document` with the member at `path` removed (or set to `value`)."""
    result = copy.deepcopy(document)
    parent = result
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    elif isinstance(parent, list) and path[-1] == len(parent):
        parent.append(value)
    else:
        parent[path[-1]] = value
    return result


def copy_extra(data, names, folder):
    for name in names:
        source, target = name if isinstance(name, tuple) else (name, name)
        shutil.copyfile(data / source, folder / target)


def json_path(path):
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def mutants(data):
    """The mutated copies of real files (``Mutant``s) that the schemas must reject or accept."""
    l1 = strict_json((data / "clubsNL03.level1.json").read_bytes())
    museums = strict_json((data / "museumsNL.level1.json").read_bytes())
    tree = strict_json((data / "clubsNL.level1.json").read_bytes())
    l2 = strict_json((data / "fgWaalre.level2.json").read_bytes())
    l0 = strict_json((data / "root.level0.json").read_bytes())
    includes = ["clubsNL03.level1.json", "clubsNL16.level1.json"]
    club = ("clubs", 0)
    out = []

    def reject(level, base, document, path, value=DELETE, label=None, at=None, extra=()):
        what = f"{json_path(path)} removed" if value is DELETE else f"{json_path(path)} = {json.dumps(value, ensure_ascii=True)}"
        out.append(Mutant(level, base, label or what, mutate(document, path, value), False, "error",
                          json_path(path) if at is None else at, extra))

    def accept(level, base, document, path, value=DELETE, label=None, extra=(), warns=False, at=None):
        """`warns`: validate must warn at the mutated spot (or `at`), without an error."""
        what = f"{json_path(path)} removed" if value is DELETE else f"{json_path(path)} = {json.dumps(value, ensure_ascii=True)}"
        out.append(Mutant(level, base, label or what, mutate(document, path, value), True, "warning" if warns else "clean",
                          (json_path(path) if at is None else at) if warns else None, extra))

    # Level 1: required keys, types, ranges, names.
    for key in ("town", "fullName", "nickName"):
        reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", key))
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus",))
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates",))
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "latitude"))
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "longitude"))
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "town"), None, at=json_path(club + ("idPlus", "town")))
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "latitude"), 90.5)
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "latitude"), -91)
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "longitude"), 180.01)
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "longitude"), -200)
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates", "latitude"), "52.99")
    reject(1, "clubsNL03.level1.json", l1, club + ("coordinates",), [52.99, 6.56])
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "town"), "")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "fullName"), "   ")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "nickName"), "\u3000\t")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "town"), 42)
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "town"), "Assen\u0007")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "fullName"), "Fotoclub\u0085Assen")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "nickName"), "fcAssen\n")
    reject(1, "clubsNL03.level1.json", l1, club + ("idPlus", "nickName"), "\u0000")
    reject(1, "clubsNL03.level1.json", l1, club + ("optional",), "none")
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "website"), 5)
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "level2URL"), ["https://example.com/x.level2.json"])
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "nlSpecific"), 1641)
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "nlSpecific", "fotobondNumber"), 1641.5)
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "nlSpecific", "fotobondNumber"), "1641")
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "remark"), {"language": "EN", "value": "x"})
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "remark", 0, "language"))
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "remark", 0, "value"), " ")
    reject(1, "clubsNL03.level1.json", l1, club + ("optional", "remark", 0), None)
    reject(1, "clubsNL03.level1.json", l1, ("clubs",), {"town": "Assen"})
    reject(1, "clubsNL03.level1.json", l1, ("clubs",), "clubs")
    reject(1, "clubsNL03.level1.json", l1, ("clubs", len(l1["clubs"])), None)
    reject(1, "clubsNL03.level1.json", l1, ("clubs", 0), "Fotoclub Assen")
    reject(1, "museumsNL.level1.json", museums, ("museums",), 3)
    reject(1, "clubsNL03.level1.json", l1, ("level1Header",), "clubsNL03")
    reject(1, "clubsNL03.level1.json", l1, ("level1Header", "level1URLIncludes"), "clubsNL16.level1.json")
    reject(1, "clubsNL03.level1.json", l1, ("level1Header", "level1URLIncludes"), [16])
    reject(1, "clubsNL03.level1.json", l1, ("level1Header", "level1URLIncludes"), [""])
    out.append(Mutant(1, "clubsNL03.level1.json", "the file is an array", [l1], False, "error", "", ()))
    # Includes: only the last path component counts, and it must be NAME.level1.json.
    include = ("level1Header", "level1URLIncludes", 0)
    url = tree["level1Header"]["level1URLIncludes"][0].rsplit("/", 1)[0]
    for tail in ("clubsNL03.json", "clubsNL03.level1.url", "", ".level1.json", "clubs.NL03.level1.json"):
        reject(1, "clubsNL.level1.json", tree, include, f"{url}/{tail}", label=f"{json_path(include)} = \".../{tail}\"",
               extra=includes)
    # The same bad name, with a file of that name next to the including file (a copy of clubsNL03).
    reject(1, "clubsNL.level1.json", tree, include, url + "/clubsNL03.json",
           label=f"{json_path(include)} = \".../clubsNL03.json\", a file clubsNL03.json present",
           extra=includes + [("clubsNL03.level1.json", "clubsNL03.json")])

    accept(1, "clubsNL03.level1.json", l1, club + ("foundedIn",), 1950, label="unknown key clubs[0].foundedIn (validate warns)", warns=True)
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "websiet"), "https://example.org",
           label="misspelt key clubs[0].optional.websiet (validate warns)", warns=True)
    accept(1, "clubsNL03.level1.json", l1, ("$schema",), "https://hubgeo.invalid/schemas/level1.schema.json",
           label="$schema key, for an editor (validate says nothing)")
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "wikipedia"), "", label="empty wikipedia URL (validate warns)", warns=True)
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "website"), "ftp://example.org", label="non-http website (validate warns)", warns=True)
    accept(1, "clubsNL03.level1.json", l1, club + ("idPlus", "town"), "Assen ", label="town with a trailing space (validate warns)", warns=True)
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "remark", 0, "language"), l1["clubs"][0]["optional"]["remark"][0]["language"].lower(),
           label="remark language in lower case")
    accept(1, "clubsNL03.level1.json", l1, club + ("optional",))
    accept(1, "clubsNL03.level1.json", l1, club + ("optional",), None)
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "website"), None)
    accept(1, "clubsNL03.level1.json", l1, club + ("optional", "nlSpecific", "fotobondNumber"), 1641.0)
    accept(1, "clubsNL03.level1.json", l1, club + ("coordinates",), {"latitude": -90, "longitude": 180})
    accept(1, "clubsNL03.level1.json", l1, club + ("idPlus", "fullName"), "Fotoclub ‘Assen’ — 1950 ✓")
    accept(1, "clubsNL03.level1.json", l1, ("level1Header",), None)
    accept(1, "clubsNL.level1.json", tree, include, "https://example.org/elsewhere/clubsNL03.level1.json",
           label="include from another host, same base name", extra=includes)
    accept(1, "clubsNL.level1.json", tree, include, "clubsNL03.level1.json", label="include as a bare file name", extra=includes)

    # Level 2.
    member = ("members", 0)  # with status
    busy = ("members", 4)    # with roles, expertises and images
    reject(2, "fgWaalre.level2.json", l2, ("club",))
    reject(2, "fgWaalre.level2.json", l2, ("club",), None, at="club")
    reject(2, "fgWaalre.level2.json", l2, ("club", "idPlus"))
    reject(2, "fgWaalre.level2.json", l2, ("club", "idPlus", "fullName"))
    reject(2, "fgWaalre.level2.json", l2, ("club", "coordinates", "latitude"), 100)
    reject(2, "fgWaalre.level2.json", l2, ("club", "coordinates", "longitude"), "5.46")
    reject(2, "fgWaalre.level2.json", l2, ("club", "idPlus", "town"), "Waalre\u009f")
    reject(2, "fgWaalre.level2.json", l2, ("members",), {"name": "x"})
    reject(2, "fgWaalre.level2.json", l2, member, None)
    reject(2, "fgWaalre.level2.json", l2, member + ("name",))
    reject(2, "fgWaalre.level2.json", l2, member + ("name", "givenName"))
    reject(2, "fgWaalre.level2.json", l2, member + ("name", "familyName"), "")
    reject(2, "fgWaalre.level2.json", l2, member + ("name", "infixName"), 5)
    reject(2, "fgWaalre.level2.json", l2, member + ("optional",), [])
    reject(2, "fgWaalre.level2.json", l2, busy + ("optional", "roles", "isChairman"), 1)
    reject(2, "fgWaalre.level2.json", l2, member + ("optional", "status", "isDeceased"), "false")
    reject(2, "fgWaalre.level2.json", l2, busy + ("optional", "expertises"), "Landscape")
    reject(2, "fgWaalre.level2.json", l2, busy + ("optional", "expertises"), [3])
    reject(2, "fgWaalre.level2.json", l2, busy + ("optional", "featuredImage"), False)
    out.append(Mutant(2, "fgWaalre.level2.json", "the file is a string", "fgWaalre", False, "error", "", ()))
    accept(2, "fgWaalre.level2.json", l2, member + ("birthday",), "1970-01-01", label="birthday outside optional (validate warns)", warns=True)
    accept(2, "fgWaalre.level2.json", l2, busy + ("optional", "expertises"), ["Underwater"],
           label="an expertise Level 0 does not define (validate warns)", warns=True)
    accept(2, "fgWaalre.level2.json", l2, member + ("name", "infixName"), "")
    accept(2, "fgWaalre.level2.json", l2, member + ("optional", "nlSpecific"), {"fotobondNumber": 1634051.5},
           label="a member's fotobondNumber that is not whole (validate does not read it)")
    accept(2, "fgWaalre.level2.json", l2, ("members",))

    # Level 0.
    expertise = ("expertises", 0)
    reject(0, "root.level0.json", l0, expertise + ("idString",), at="expertises[0]")
    reject(0, "root.level0.json", l0, expertise + ("idString",), None, at="expertises[0]")
    reject(0, "root.level0.json", l0, expertise + ("idString",), 5)
    reject(0, "root.level0.json", l0, expertise + ("name",), "Abstract")
    reject(0, "root.level0.json", l0, expertise, 5)
    reject(0, "root.level0.json", l0, ("expertises",), {"idString": "Abstract"})
    reject(0, "root.level0.json", l0, ("languages",), "EN")
    reject(0, "root.level0.json", l0, ("languages", 0, "isoCode"), 44)
    out.append(Mutant(0, "root.level0.json", "the file is an array", [l0], False, "error", "", ()))
    accept(0, "root.level0.json", l0, ("languages", 0, "isoCode"), "en", label="language code in lower case (codes compare without case)")
    accept(0, "root.level0.json", l0, ("languages", 0, "isSupported"), True, label="a language's isSupported flag (app data 3.4.0)")
    reject(0, "root.level0.json", l0, ("languages", 0, "isSupported"), "yes")
    accept(0, "root.level0.json", l0, ("languages", 0, "isoCode"))
    accept(0, "root.level0.json", l0, expertise + ("idString",), " ", label="blank idString (validate says nothing)")
    accept(0, "root.level0.json", l0, ("expertises", len(l0["expertises"])), None)
    accept(0, "root.level0.json", {}, ("languages",), None, label="neither list (languages: null; validate warns)", warns=True, at="")
    return out


def limits(data):
    """What validate reports as an error and no JSON Schema can express: the schemas accept it."""
    l1 = strict_json((data / "clubsNL03.level1.json").read_bytes())
    remark = copy.deepcopy(l1["clubs"][0]["optional"]["remark"][0])
    remark["language"] = remark["language"].lower()
    document = mutate(l1, ("clubs", 0, "optional", "remark", len(l1["clubs"][0]["optional"]["remark"])), remark)
    return [Mutant(1, "clubsNL03.level1.json", "a second remark in one language (differing by case)", document,
                   True, "error", "clubs[0].optional.remark", ())]


def undocumented(schema):
    """The keys, definitions and array items of a schema without a title or a description (what an
    editor shows on hover); a bare $ref counts as documented when its definition is."""
    def documented(node):
        if "title" in node and "description" in node:
            return True
        target = node.get("$ref", "")
        return target.startswith("#/$defs/") and documented(schema["$defs"][target[len("#/$defs/"):]])

    missing = [] if documented(schema) else ["the root"]

    def walk(node, where):
        children = [(f"{where}/{key}/{name}", child) for key in ("properties", "$defs")
                    for name, child in (node.get(key) or {}).items()]
        if isinstance(node.get("items"), dict):
            children.append((f"{where}/items", node["items"]))
        for child_where, child in children:
            if not documented(child):
                missing.append(child_where)
            walk(child, child_where)
    walk(schema, "#")
    return missing


# MARK: - Validators

def python_verdicts(cases, schemas):
    verdicts = {}
    validators = {level: Draft202012Validator(schema) for level, schema in schemas.items()}
    for case in cases:
        try:
            instance = strict_json(case.path.read_bytes())
        except (ValueError, UnicodeDecodeError) as error:
            verdicts[case.path] = (False, f"not JSON: {error}")
            continue
        error = best_match(validators[case.level].iter_errors(instance))
        verdicts[case.path] = (True, "") if error is None else (False, short(f"{error.json_path}: {error.message}"))
    return verdicts


def check_jsonschema_verdicts(cases):
    """check-jsonschema, once per schema over all its files."""
    verdicts = {}
    executable = shutil.which("check-jsonschema")
    for level in (0, 1, 2):
        paths = [case.path for case in cases if case.level == level]
        if not paths:
            continue
        if executable is None:
            verdicts.update({path: (None, "check-jsonschema not found (pip install check-jsonschema)") for path in paths})
            continue
        run = subprocess.run([executable, "--output-format", "json", "--schemafile", str(SCHEMAS[level])]
                             + [str(path) for path in paths], capture_output=True, text=True)
        try:
            report = json.loads(run.stdout)
        except ValueError:
            detail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
            verdicts.update({path: (None, f"check-jsonschema failed: {detail[0]}") for path in paths})
            continue
        problems = {}
        for error in report.get("errors", []):
            problems.setdefault(error["filename"], short(f"{error['path']}: {error['message']}"))
        for error in report.get("parse_errors", []):
            problems.setdefault(error["filename"], "not JSON")
        for path in paths:
            verdicts[path] = (False, problems[str(path)]) if str(path) in problems else (True, "")
    return verdicts


def hubgeo_validate(hubgeo, path, database):
    """(exit status, diagnostics) of `hubgeo validate PATH --format json`; None when it printed no report."""
    environment = dict(os.environ, HUBGEO_DB=str(database))
    environment.pop("GITHUB_ACTIONS", None)
    run = subprocess.run([str(hubgeo), "validate", str(path), "--format", "json"], capture_output=True, text=True,
                         env=environment, timeout=60)
    try:
        diagnostics = json.loads(run.stdout)["diagnostics"]
    except (ValueError, KeyError):
        return run.returncode, None
    return run.returncode, diagnostics


def short(text, limit=160):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def at_or_below(json_path_, prefix):
    return prefix == "" or json_path_ == prefix or json_path_.startswith(prefix + ".") or json_path_.startswith(prefix + "[")


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hubgeo", help="the hubgeo binary whose validate must agree with the schemas")
    parser.add_argument("--no-hubgeo", action="store_true", help="do not compare with hubgeo validate")
    options = parser.parse_args()

    results = []

    def report(ok, group, text):
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'}  {group:<7} {text}", flush=True)

    # 1. The schemas themselves.
    schemas = {}
    for level, path in SCHEMAS.items():
        try:
            schemas[level] = json.loads(path.read_text(encoding="utf-8"))
            Draft202012Validator.check_schema(schemas[level])
            report(True, "schema", f"{display(path)} is a valid draft 2020-12 schema")
        except (OSError, ValueError, SchemaError) as error:
            report(False, "schema", f"{display(path)}: {str(error).splitlines()[0]}")
    if len(schemas) < 3:
        print(f"{results.count(True)} passed, {results.count(False)} failed")
        return 1
    for level, schema in schemas.items():
        missing = undocumented(schema)
        report(not missing, "schema", f"level{level}: every key, definition and array item has a title and a description"
               + (f"; not: {', '.join(missing)}" if missing else ""))
    shared = sorted(set(schemas[1]["$defs"]) & set(schemas[2]["$defs"]))
    different = [name for name in shared if schemas[1]["$defs"][name] != schemas[2]["$defs"][name]]
    report(not different and "organization" in shared, "schema",
           f"level1 and level2 share identical $defs ({', '.join(shared)})"
           + (f"; different: {', '.join(different)}" if different else ""))

    # 2. Real data and fixtures.
    cases = []
    found_invalid = set()
    for folder in DATA_FOLDERS:
        found = 0
        for path in sorted(folder.rglob("*.json")):
            level = level_of(path)
            if level is None:
                continue
            found += 1
            key = f"{path.parent.name}/{path.name}"
            reason = MEANT_INVALID.get(key) if folder.name == "upstream" else None
            if reason:
                found_invalid.add(key)
            cases.append(Case("file", display(path), path, level, reason is None, reason or ""))
        report(found > 0, "file", f"{display(folder)} holds {found} Level 0/1/2 files")
    missing = sorted(set(MEANT_INVALID) - found_invalid)
    report(not missing, "file", "every fixture listed as meant to be invalid exists"
           + (f"; not found: {', '.join(missing)}" if missing else ""))

    hubgeo = None
    if not options.no_hubgeo:
        candidate = Path(options.hubgeo or os.environ.get("HUBGEO_BIN") or REPO / ".build" / "debug" / "hubgeo")
        if candidate.is_file() and os.access(candidate, os.X_OK):
            hubgeo = candidate
        elif options.hubgeo or os.environ.get("HUBGEO_BIN"):
            report(False, "hubgeo", f"{candidate} is not an executable file")
        else:
            print(f"note: no hubgeo at {display(candidate)}; hubgeo validate is not compared (--hubgeo PATH)")

    with tempfile.TemporaryDirectory(prefix="check-schemas.") as scratch:
        scratch = Path(scratch)
        data = REPO / "Data"
        bases = {}
        numbered = [(mutant, "mutant") for mutant in mutants(data)] + [(mutant, "limit") for mutant in limits(data)]
        for index, (mutant, group) in enumerate(numbered, start=1):
            folder = scratch / f"{index:03d}"
            folder.mkdir()
            path = folder / mutant.base
            path.write_text(json.dumps(mutant.document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            copy_extra(data, mutant.extra, folder)
            cases.append(Case(group, f"level{mutant.level} {mutant.base}: {mutant.label}", path, mutant.level, mutant.valid,
                              validate=mutant.validate, at=mutant.at,
                              note="known limit: validate reports it, no JSON Schema can say it" if group == "limit" else ""))
            bases.setdefault(mutant.base, [name for name in mutant.extra if not isinstance(name, tuple)])

        python = python_verdicts(cases, schemas)
        ecma = check_jsonschema_verdicts(cases)

        # Each mutant's unchanged base must pass validate without errors, else agreement means nothing.
        if hubgeo:
            for base, extra in bases.items():
                folder = scratch / f"base-{base}"
                folder.mkdir()
                shutil.copyfile(data / base, folder / base)
                copy_extra(data, extra, folder)
                status, diagnostics = hubgeo_validate(hubgeo, folder / base, scratch / "hubgeo.sqlite")
                errors = None if diagnostics is None else [d for d in diagnostics if d["severity"] == "error"]
                report(status == 0 and errors == [], "hubgeo",
                       f"validate of the unchanged {base} (a mutant's base): exit {status}, "
                       + ("no output" if errors is None else f"{len(errors)} errors"))

        for case in cases:
            problems = []
            seen = []
            for name, verdicts in (("jsonschema", python), ("check-jsonschema", ecma)):
                accepted, message = verdicts[case.path]
                if accepted is None:
                    problems.append(message)
                elif accepted != case.valid:
                    problems.append(f"{name} {'accepts' if accepted else 'rejects'} it" + (f" ({message})" if message else ""))
                elif not accepted:
                    seen.append(message)
            verdict = "accepted" if case.valid else "rejected"
            if problems:
                text = f"{case.label}: must be {verdict} by jsonschema and check-jsonschema"
            else:
                text = f"{case.label}: {verdict} by jsonschema and check-jsonschema"
            if case.reason:
                text += f" ({case.reason})"
            elif seen:
                text += f" ({seen[0]})"
            if hubgeo and case.validate:
                status, diagnostics = hubgeo_validate(hubgeo, case.path, scratch / "hubgeo.sqlite")
                errors = [d for d in diagnostics or [] if d["severity"] == "error"]
                warnings = [d for d in diagnostics or [] if d["severity"] == "warning"
                            and Path(d["file"]).name == case.path.name and at_or_below(d["jsonPath"], case.at or "")]
                if diagnostics is None:
                    problems.append(f"hubgeo validate gave no JSON (exit {status})")
                elif case.validate in ("clean", "warning"):
                    if status != 0 or errors:
                        problems.append(f"hubgeo validate disagrees: exit {status}, "
                                        + "; ".join(f"{e['jsonPath']}: {e['message']}" for e in errors[:2]))
                    elif case.validate == "warning" and not warnings:
                        problems.append(f"hubgeo validate gives no warning at {case.at or 'the file'}")
                    elif case.validate == "warning":
                        text += f"; validate: no error, a warning ({short(warnings[0]['message'], 100)})"
                    else:
                        text += "; validate: no error"
                else:
                    spot = [e for e in errors if Path(e["file"]).name == case.path.name and at_or_below(e["jsonPath"], case.at)]
                    if status != 1 or not spot:
                        problems.append(f"hubgeo validate disagrees: exit {status}, "
                                        + (f"no error at {case.at or 'the file'}" if not spot else "")
                                        + "".join(f"; {e['jsonPath']}: {e['message']}" for e in errors[:2]))
                    else:
                        text += f"; validate: error at {spot[0]['jsonPath'] or 'the file'} ({short(spot[0]['message'], 100)})"
            if case.note:
                text += f" [{case.note}]"
            report(not problems, case.group, text + ("" if not problems else ": " + "; ".join(problems)))

    passed, failed = results.count(True), results.count(False)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
