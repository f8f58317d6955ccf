#!/usr/bin/env bash
# The dist archive as a user gets it, on a machine without Swift (`make dist-test`).
#
# In a private mount namespace (unshare -m) an empty tmpfs lies over /opt/swift and over every other
# folder holding a copy of the Swift runtime or Foundation (perf's build-id cache keeps one, say), so
# that only what the system's Debian packages install is there. In a clean environment (HOME, XDG
# paths and PATH of their own), the archive is unpacked in a new folder and hubgeo runs as on first
# use: `--version`; `near 51.4 5.4 --km 20`, which imports the built-in data into a new SpatiaLite
# database; `validate`; `export geojson`; a mistyped subcommand. `ldd` must find every library, none
# of them Swift's.
# Before that, `make install STATIC=1 DESTDIR=... PREFIX=/usr` (the dist build); in the namespace
# the installed man page must render with man and groff, the bash completion script must source and
# complete `hubgeo ne` to `near`, the installed binary must run; then `make uninstall` removes it all.
#
# Needs root (unshare, mount), man-db, groff, bash-completion and sqlite3 (make dist-test installs
# them). Prints one line per check and closes with "N passed, N failed"; exits 1 on any failure.
#
# Usage: dist-test.sh dist/hubgeo-VERSION-linux-ARCH.tar.gz
set -euo pipefail

# --- the checks ---------------------------------------------------------------------------------

results=""  # set below: a file with one line per check, shared by both parts
pass() { echo "ok   $1" | tee -a "$results"; }
fail() { echo "FAIL $1" | tee -a "$results"; }
# check DESCRIPTION COMMAND...: the command succeeds.
check() {
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}
contains() { grep -q -F -- "$2" <<< "$1"; }
matches() { grep -q -E -- "$2" <<< "$1"; }

# Runs hubgeo with the user's environment: sets status, out, err.
run() {
    local code=0
    "$@" > "$work/out" 2> "$work/err" || code=$?
    status=$code out=$(cat "$work/out") err=$(cat "$work/err")
}

# --- inside the namespace: Swift hidden ---------------------------------------------------------

inside() {
    work=$1 tarball=$2 results=$1/results

    # Hide every copy of the Swift runtime and Foundation that a loader could find.
    local dirs
    # On a busy machine files come and go while find walks /: its complaints about them (and its
    # exit status) do not matter, and a folder gone before its mount needs no hiding.
    dirs=$( { echo /opt/swift; find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path "$work" \) -prune -o \
        \( -name 'libswiftCore.so*' -o -name 'libFoundation*.so*' -o -name 'lib_FoundationICU.so*' -o -name 'libdispatch.so*' \) \
        -print 2>/dev/null || true; } | xargs -r -d '\n' -n1 dirname | sort -u)
    while IFS= read -r dir; do
        if [ -d "$dir" ]; then mount -t tmpfs -o size=1m,mode=755 hubgeo-dist-test "$dir" || [ ! -d "$dir" ]; fi
    done <<< "$dirs"
    check "/opt/swift is empty" test -z "$(ls -A /opt/swift 2>/dev/null)"
    local left
    left=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev \) -prune -o -name 'libswiftCore.so*' -print 2>/dev/null || true)
    check "no libswiftCore.so left anywhere ($(wc -l <<< "$dirs") folders hidden)" test -z "$left"

    # The user: a new HOME, no Swift on PATH, no LD_LIBRARY_PATH.
    local home=$work/home
    mkdir -p "$home" "$work/user"
    user_env=(env -i HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config"
        XDG_CACHE_HOME="$home/.cache" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 TERM=dumb)
    check "no swift on the user's PATH" test -z "$("${user_env[@]}" bash -c 'command -v swift swiftc' || true)"

    tar -xzf "$tarball" -C "$work/user"
    local name
    name=$(basename "$tarball" .tar.gz)
    local hubgeo=$work/user/$name/bin/hubgeo
    check "the archive holds $name/bin/hubgeo" test -x "$hubgeo"
    check "the archive holds the man page, the completions and COMPONENTS" test -f "$work/user/$name/share/man/man1/hubgeo.1" \
        -a -f "$work/user/$name/share/bash-completion/completions/hubgeo" -a -f "$work/user/$name/share/zsh/site-functions/_hubgeo" \
        -a -f "$work/user/$name/share/fish/vendor_completions.d/hubgeo.fish" -a -f "$work/user/$name/share/doc/hubgeo/COMPONENTS"

    local libraries
    libraries=$(ldd "$hubgeo" 2>&1 || true)
    echo "$libraries" | sed 's/^/     ldd: /'
    check "ldd finds every library" bash -c '! grep -q "not found" <<< "$1"' _ "$libraries"
    check "ldd lists nothing from /opt/swift or a build folder" bash -c '! grep -q -E "/opt/swift|/\.build" <<< "$1"' _ "$libraries"
    check "ldd lists no Swift runtime, Foundation or Dispatch" \
        bash -c '! grep -q -E "lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)" <<< "$1"' _ "$libraries"

    local version=${name#hubgeo-}
    version=${version%-linux-*}
    run "${user_env[@]}" "$hubgeo" --version
    check "hubgeo --version prints $version, exit 0" test "$status" = 0 -a "$out" = "$version"

    run "${user_env[@]}" "$hubgeo" near 51.4 5.4 --km 20
    check "near: exit 0" test "$status" = 0
    check "near: imports the built-in data on first use" contains "$err" "imported the built-in Photo Club Hub data"
    check "near: the table lists Fotogroep Luminos first" matches "$(sed -n 3p <<< "$out")" '^Fotogroep Luminos +club +Veldhoven +0\.65$'
    local db=$home/.local/share/hubgeo/hubgeo.sqlite
    check "near: wrote a SpatiaLite database with 131 organizations" test \
        "$(sqlite3 "file:$db?mode=ro" "SELECT count(*) FROM organization; SELECT f_geometry_column FROM geometry_columns WHERE f_table_name = 'organization'" 2>&1 | tr '\n' ' ')" = "131 geom "

    run "${user_env[@]}" "$hubgeo" validate
    local summary
    summary=$(tail -1 <<< "$out")
    echo "     validate: $summary (exit $status)"
    check "validate: a summary line" matches "$summary" '^[0-9]+ files, 131 organizations: [0-9]+ errors?, [0-9]+ warnings?$'
    local errors
    errors=$(sed -E -n 's/.*: ([0-9]+) errors?,.*/\1/p' <<< "$summary")
    check "validate: exit 1 with errors, 0 without (exit $status, ${errors:-?} errors)" \
        test "$status" = "$([ "${errors:-0}" -gt 0 ] && echo 1 || echo 0)"

    local head
    head=$("${user_env[@]}" "$hubgeo" export geojson | head -c 100)
    check "export geojson | head -c 100: a FeatureCollection" matches "$head" '^\{"type":"FeatureCollection","features":\['
    run "${user_env[@]}" "$hubgeo" export geojson -o "$work/all.geojson"
    check "export geojson -o: exit 0, 131 features" test "$status" = 0 -a \
        "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["features"]))' "$work/all.geojson")" = 131

    run "${user_env[@]}" "$hubgeo" neer 51 5
    check "neer 51 5: exit 64, did you mean 'near'" test "$status" = 64 -a -n "$(grep -F "Did you mean 'near'?" <<< "$err")"

    # What `make install` put under DESTDIR.
    local usr=$work/stage/usr
    run "${user_env[@]}" "$usr/bin/hubgeo" --version
    check "installed hubgeo --version runs without Swift" test "$status" = 0 -a "$out" = "$version"
    local page
    page=$("${user_env[@]}" MANWIDTH=80 MANPAGER=cat man -l "$usr/share/man/man1/hubgeo.1" 2> "$work/man.err" || true)
    local commands
    commands=$("${user_env[@]}" "$hubgeo" --help | sed -n '/^SUBCOMMANDS:/,$p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }')
    check "man -l renders the page: NAME, an item for each of the $(echo $commands | wc -w) subcommands, no warning" bash -c '
        grep -q "^NAME" <<< "$1" && [ -n "$3" ] || exit 1
        for command in $3; do
            grep -q -E "^ +$command( |\$)" <<< "$1" || { echo "     no item for $command in the man page"; exit 1; }
        done
        ! [ -s "$2" ]' _ "$page" "$work/man.err" "$commands"
    groff -mandoc -Tutf8 -ww "$usr/share/man/man1/hubgeo.1" > "$work/groff.out" 2> "$work/groff.err" || true
    check "groff -mandoc -Tutf8 renders it without a warning" test -s "$work/groff.out" -a ! -s "$work/groff.err"
    local completion
    completion=$("${user_env[@]}" PATH="$usr/bin:/usr/bin:/bin" bash --norc --noprofile -c '
        source /usr/share/bash-completion/bash_completion
        source "$1"
        function=$(complete -p hubgeo | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
        COMP_WORDS=(hubgeo ne); COMP_CWORD=1; COMP_LINE="hubgeo ne"; COMP_POINT=${#COMP_LINE}
        "$function" hubgeo ne hubgeo
        printf "%s\n" "${COMPREPLY[@]}"' _ "$usr/share/bash-completion/completions/hubgeo" 2>&1 || true)
    check "bash completes 'hubgeo ne' to 'near' (got: $(echo $completion))" test "$completion" = near
}

# --- outside: install, then the namespace, then uninstall -----------------------------------------

if [ "${1:-}" = --inside ]; then
    inside "$2" "$3"
    exit 0
fi
if [ $# -ne 1 ]; then
    echo "usage: $0 dist/hubgeo-VERSION-linux-ARCH.tar.gz" >&2
    exit 64
fi
tarball=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results
: > "$results"

check "the checksum file beside the archive verifies it (sha256sum -c $(basename "$tarball").sha256)" \
    bash -c 'cd "$(dirname "$1")" && sha256sum --quiet -c "$(basename "$1").sha256"' _ "$tarball"

make -C "$root" --no-print-directory install STATIC=1 DESTDIR="$work/stage" PREFIX=/usr > "$work/install.log" 2>&1 \
    || { cat "$work/install.log"; fail "make install STATIC=1 DESTDIR=... PREFIX=/usr"; }
for file in bin/hubgeo share/man/man1/hubgeo.1 share/bash-completion/completions/hubgeo share/zsh/site-functions/_hubgeo \
    share/fish/vendor_completions.d/hubgeo.fish; do
    check "make install: /usr/$file" test -s "$work/stage/usr/$file"
done

unshare --mount --propagation private -- bash "$0" --inside "$work" "$tarball" || fail "the checks with Swift hidden ran to the end"

# A Debian bookworm with nothing but a minimal base and the runtime packages docs/install.md lists
# (debootstrap from Debian's archive; kept in .build-dist for the next run), hubgeo in a chroot.
bookworm=$root/.build-dist/bookworm-root
if [ ! -f "$bookworm/.complete" ]; then
    rm -rf "$bookworm"
    debootstrap --variant=minbase --include=libsqlite3-0,libsqlite3-mod-spatialite,libcurl4,libstdc++6 \
        bookworm "$bookworm" > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; }
    [ -x "$bookworm/bin/bash" ] && touch "$bookworm/.complete"
fi
if [ -f "$bookworm/.complete" ]; then
    rm -rf "$bookworm/tmp/hubgeo-dist-test" && mkdir -p "$bookworm/tmp/hubgeo-dist-test"
    tar -xzf "$tarball" -C "$bookworm/tmp/hubgeo-dist-test"
    name=$(basename "$tarball" .tar.gz)
    cat > "$bookworm/tmp/hubgeo-dist-test/run.sh" <<EOF
hubgeo=/tmp/hubgeo-dist-test/$name/bin/hubgeo
echo "packages \$(dpkg-query -W | wc -l), /opt: [\$(ls -A /opt)]"
v=\$(\$hubgeo --version); echo "version \$? [\$v]"
n=\$(\$hubgeo near 51.4 5.4 --km 20 2>/dev/null); echo "near \$? [\$(echo "\$n" | sed -n 3p)]"
o=\$(\$hubgeo validate 2>/dev/null); echo "validate \$? [\$(echo "\$o" | tail -1)]"
EOF
    # Swift's runtime reads the arguments from /proc/self/cmdline: the chroot gets its own /proc.
    chrooted=$(unshare --mount --propagation private -- bash -c 'mount -t proc proc "$1/proc" && chroot "$1" env -i \
        HOME=/tmp/hubgeo-dist-test/home PATH=/usr/bin:/bin LANG=C.UTF-8 /bin/bash /tmp/hubgeo-dist-test/run.sh' _ "$bookworm" 2>&1 || true)
    echo "$chrooted" | sed 's/^/     bookworm: /'
    version=${name#hubgeo-}
    check "bookworm, only the runtime packages, no /opt: hubgeo --version" grep -q -x "version 0 \[${version%-linux-*}\]" <<< "$chrooted"
    check "bookworm: near imports and lists Fotogroep Luminos first" grep -q -E '^near 0 \[Fotogroep Luminos +club +Veldhoven +0\.65\]$' <<< "$chrooted"
    check "bookworm: validate gives its summary" grep -q -E '^validate [01] \[[0-9]+ files, 131 organizations: [0-9]+ errors?, [0-9]+ warnings?\]$' <<< "$chrooted"
    check "bookworm: /opt is empty" grep -q -E '^packages [0-9]+, /opt: \[\]$' <<< "$chrooted"
else
    fail "debootstrap of a minimal bookworm"
fi

make -C "$root" --no-print-directory uninstall DESTDIR="$work/stage" PREFIX=/usr > /dev/null
check "make uninstall leaves no file" test -z "$(find "$work/stage" -type f)"

passed=$(grep -c '^ok' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
