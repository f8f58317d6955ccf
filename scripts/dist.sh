#!/usr/bin/env bash
# Packs the hubgeo that `make dist` built (release, Swift runtime and Foundation linked in) into
# OUT/hubgeo-VERSION-linux-ARCH.tar.gz, one folder laid out as a prefix:
#   bin/hubgeo                                   stripped
#   share/man/man1/hubgeo.1, completions         as `make install` puts them (install-shell-files.sh)
#   share/doc/hubgeo/COMPONENTS                  what is inside the binary, and under which licence
#   share/doc/hubgeo/licenses/NAME/...           those licences, as each project ships them
# The components are read off the build: the packages whose modules were linked (the product's
# link file list), Swift's runtime and Foundation, and ICU when Foundation brought its data in.
# Files get owner root, mode 644/755 and the time SOURCE_DATE_EPOCH (else now), sorted by name.
#
# Beside it, OUT/hubgeo-VERSION-linux-ARCH.tar.gz.sha256, its SHA-256 as `sha256sum` writes it.
#
# Usage: dist.sh SCRATCH GENERATE_MANUAL OUT    (prints the tarball's path)
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 SCRATCH GENERATE_MANUAL OUT" >&2
    exit 64
fi
scratch=$1 generate_manual=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$scratch/release/hubgeo
link_list=$scratch/release/hubgeo.product/Objects.LinkFileList
objects=$(cd "$scratch" && pwd)/$(uname -m)-unknown-linux-gnu/release

if readelf -d "$binary" | grep -E 'NEEDED.*lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)'; then
    echo "dist.sh: $binary needs the Swift runtime as a shared library; build it with --static-swift-stdlib" >&2
    exit 1
fi

version=$("$binary" --version)
name=hubgeo-$version-linux-$(uname -m)
stage=$scratch/dist-stage/$name
rm -rf "$scratch/dist-stage"
install -d "$stage/bin" "$stage/share/doc/hubgeo/licenses"
install -m 755 "$binary" "$stage/bin/hubgeo"
strip --strip-all "$stage/bin/hubgeo"
bash "$root/scripts/install-shell-files.sh" "$stage/bin/hubgeo" "$generate_manual" "$stage"

doc=$stage/share/doc/hubgeo
components=$doc/COMPONENTS
# Copies the licence files of one component (LICENSE*, NOTICE*, COPYING*) into licenses/NAME and
# lists it in COMPONENTS.
add_component() { # NAME VERSION DESCRIPTION FILE...
    local name=$1 version=$2 description=$3
    shift 3
    install -d "$doc/licenses/$name"
    local files=()
    for file in "$@"; do
        install -m 644 "$file" "$doc/licenses/$name/$(basename "$file")"
        files+=("licenses/$name/$(basename "$file")")
    done
    printf '%s %s\n    %s\n    %s\n\n' "$name" "$version" "$description" "${files[*]}" >> "$components"
}

cat > "$components" <<EOF
hubgeo $version, linux $(uname -m): what this binary holds, and the licence of each part.
It links these shared libraries of the system (Debian packages, not in this archive):
$(readelf -d "$binary" | sed -n 's/.*NEEDED.*\[\(.*\)\]/    \1/p')
and loads mod_spatialite (libsqlite3-mod-spatialite) when it writes a database, libcurl.so.4
(libcurl4) when it fetches.

EOF

shopt -s nullglob
project_licences=("$root"/LICENSE* "$root"/COPYING*)
if [ ${#project_licences[@]} -gt 0 ]; then
    add_component hubgeo "$version" "hubgeo itself" "${project_licences[@]}"
fi
add_component photo-club-hub-data "(built in)" \
    "The Photo Club Hub Level 1/2 data built into hubgeo (Data/; imported on first use)" \
    "$root/Data/LICENSE.upstream"

# Swift's runtime, the standard library, Dispatch and Foundation: the toolchain's licence
# (Apache 2.0 with the Runtime Library Exception).
swiftc=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)
swift_version=$("$swiftc" --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)
add_component swift "$swift_version" \
    "Swift runtime, standard library, Dispatch and Foundation (swift-foundation, swift-corelibs-foundation), linked in statically" \
    "$toolchain/share/swift/LICENSE.txt"

# Foundation's ICU (swift-foundation-icu) and its data come along when Foundation's
# internationalization is linked. The toolchain ships no copy of ICU's licence; Debian's libicu-dev
# ships ICU's LICENSE file (its own ICU version: the same Unicode licence and third-party notices).
icu_version=$(grep -a -o -m 1 -E 'icudt[0-9]+l' "$binary" | head -1 | tr -dc 0-9 || true)
if [ -n "$icu_version" ]; then
    icu_licences=(/usr/share/icu/*/LICENSE)
    if [ ${#icu_licences[@]} -eq 0 ]; then
        echo "dist.sh: the binary holds ICU $icu_version data; ICU's licence comes from Debian's libicu-dev (make dist-deps)" >&2
        exit 1
    fi
    add_component icu "$icu_version" \
        "ICU and its data, inside Foundation (swift-foundation-icu); licence text from Debian's libicu-dev ($(basename "$(dirname "${icu_licences[0]}")"))" \
        "${icu_licences[0]}"
fi

# The Swift packages whose modules were linked: each module's first source file lies in
# SCRATCH/checkouts/PACKAGE/.
packages=$(sed -E 's#.*/release/([^/]+)\.build/.*#\1#' "$link_list" | sort -u | while read -r module; do
    source=""
    if [ -f "$objects/$module.build/sources" ]; then
        source=$(head -1 "$objects/$module.build/sources")
    else
        source=$(cat "$objects/$module.build"/*.d "$objects/$module.build"/*/*.d 2>/dev/null | grep -o '[^ ]*/checkouts/[^ ]*' | head -1 || true)
    fi
    case $source in
        */checkouts/*) p=${source#*/checkouts/}; echo "${p%%/*}" ;;
    esac
done | sort -u)
for package in $packages; do
    checkout=$scratch/checkouts/$package
    read -r url package_version < <(python3 - "$scratch/workspace-state.json" "$package" <<'PY'
import json, sys
state = json.load(open(sys.argv[1]))
for dependency in state["object"]["dependencies"]:
    if dependency["subpath"] == sys.argv[2]:
        checkout = dependency["state"].get("checkoutState", {})
        print(dependency["packageRef"]["location"], checkout.get("version") or checkout.get("revision", "?"))
PY
)
    files=("$checkout"/LICENSE* "$checkout"/LICENCE* "$checkout"/NOTICE* "$checkout"/COPYING*)
    if [ ${#files[@]} -eq 0 ]; then
        echo "dist.sh: no licence file in $checkout" >&2
        exit 1
    fi
    add_component "$package" "$package_version" "$url" "${files[@]}"
done

cat >> "$components" <<EOF
Not in this archive: Leaflet and Leaflet.markercluster, which \`hubgeo map\` and \`hubgeo serve\`
read at run time from Debian's libjs-leaflet and libjs-leaflet.markercluster, with their licences.
EOF

epoch=${SOURCE_DATE_EPOCH:-$(date +%s)}
find "$stage" -type d -exec chmod 755 {} + -o -type f ! -path "$stage/bin/*" -exec chmod 644 {} +
mkdir -p "$out"
tarball=$out/$name.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
    -C "$scratch/dist-stage" -cf - "$name" | gzip -9 -n > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
# The checksum file published with the release, in sha256sum's format ("HEX  NAME"): the GitHub
# Action (action.yml) checks the tarball against it before it unpacks anything.
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256.tmp" && mv "$name.tar.gz.sha256.tmp" "$name.tar.gz.sha256")
echo "$tarball"
