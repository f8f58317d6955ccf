#!/usr/bin/env bash
# Installs hubgeo's shell completions and man page under PREFIX, where shells and man look for them:
#   PREFIX/share/bash-completion/completions/hubgeo
#   PREFIX/share/zsh/site-functions/_hubgeo
#   PREFIX/share/fish/vendor_completions.d/hubgeo.fish
#   PREFIX/share/man/man1/hubgeo.1
# The completions are written by hubgeo itself (swift-argument-parser's --generate-completion-script),
# the man page by swift-argument-parser's generate-manual tool from hubgeo's --experimental-dump-help,
# so both follow the commands of the binary given. The page is dated SOURCE_DATE_EPOCH when set.
#
# Usage: install-shell-files.sh HUBGEO GENERATE_MANUAL PREFIX
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 HUBGEO GENERATE_MANUAL PREFIX" >&2
    exit 64
fi
hubgeo=$1 generate_manual=$2 prefix=$3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$hubgeo" --generate-completion-script bash > "$work/hubgeo.bash"
"$hubgeo" --generate-completion-script zsh > "$work/_hubgeo"
"$hubgeo" --generate-completion-script fish > "$work/hubgeo.fish"

date_args=()
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date_args=(--date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)")
fi
"$generate_manual" "$hubgeo" "${date_args[@]}" --output-directory "$work"

install -d "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
    "$prefix/share/fish/vendor_completions.d" "$prefix/share/man/man1"
install -m 644 "$work/hubgeo.bash" "$prefix/share/bash-completion/completions/hubgeo"
install -m 644 "$work/_hubgeo" "$prefix/share/zsh/site-functions/_hubgeo"
install -m 644 "$work/hubgeo.fish" "$prefix/share/fish/vendor_completions.d/hubgeo.fish"
install -m 644 "$work/hubgeo.1" "$prefix/share/man/man1/hubgeo.1"
