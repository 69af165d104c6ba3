#!/bin/sh
# usage: sh tools/scripts/check_readme.sh   (from the project root, after make)
# check_readme.sh - README.md cannot drift from the tree.  Fails, naming each
# finding, when:
#   - README.md is longer than 200 lines;
#   - a file or folder it links to or quotes (tools/..., host/..., LICENSE)
#     is not in the tree;
#   - a count it states differs from the tree's: the test suites and fuzz
#     replays of `make test` (the Makefile's TESTS and FUZZ_TARGETS) and the
#     Debian packages of tools/scripts/deps.sh;
#   - a `make TARGET` it quotes is not a target of the Makefile;
#   - a `glnbody COMMAND --option` it quotes is not a command of build/glnbody,
#     or the option is not in that command's --help;
#   - its C example (the ```c block after "readme-example") does not build
#     with -Wall -Wextra -Wpedantic -Werror against an installed copy
#     (make install into a temporary prefix, then the README's pkg-config
#     line), or does not run: without a GL context the run is skipped, as
#     the suites skip.
# Takes a few seconds once the tree is built.
set -u
readme=README.md
[ -r "$readme" ] || { echo "check_readme: $readme: not found (run from the project root)" >&2; exit 1; }
[ -x build/glnbody ] || { echo "check_readme: build/glnbody is missing: run make first" >&2; exit 1; }
fail=0
bad() { echo "check_readme: $*" >&2; fail=1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# ---- length -------------------------------------------------------------
lines=$(wc -l < "$readme")
[ "$lines" -le 200 ] || bad "README.md has $lines lines (at most 200)"

# ---- paths: markdown links and quoted paths -------------------------------
{
    grep -o '](\([^)#]*\)' "$readme" | sed 's/^](//'
    grep -o -E '(tools|host|src|glsl|tests)/[A-Za-z0-9_./-]*[A-Za-z0-9_/]' "$readme"
} | grep -v -E '^(https?:|mailto:|$)' | sort -u > "$work/paths"
while read -r p; do
    [ -e "$p" ] || [ -e "$p.c" ] || bad "README.md names $p, which is not in the tree"
done < "$work/paths"

# ---- counts -------------------------------------------------------------
make -qp 2>/dev/null > "$work/db"
words() { sed -n "s/^$1 := //p" "$work/db" | head -1 | wc -w; }
suites=$(words TESTS) replays=$(words FUZZ_TARGETS)
packages=$(sed -n 's/^PACKAGES="\(\$PACKAGES \)\{0,1\}\([^"$]*\)".*/\2/p' tools/scripts/deps.sh | wc -w)
said() { grep -o -E "$1" "$readme" | grep -o -E '[0-9]+' | head -1; }
n=$(said '[0-9]+ test suites')
[ -n "$n" ] && [ "$n" != "$suites" ] && bad "README.md says $n test suites; make test runs $suites"
n=$(said '[0-9]+ fuzz-corpus replays')
[ -n "$n" ] && [ "$n" != "$replays" ] && bad "README.md says $n fuzz-corpus replays; make test runs $replays"
n=$(said '\(([0-9]+) of them\)')
[ -n "$n" ] && [ "$n" != "$packages" ] && bad "README.md says $n Debian packages; tools/scripts/deps.sh lists $packages"

# ---- make targets -------------------------------------------------------
for t in $(grep -o -E '(^|`)make [a-z][a-z-]*' "$readme" | sed 's/.*make //' | sort -u); do
    grep -q -E "^$t:" "$work/db" || bad "README.md quotes 'make $t', which is not a Makefile target"
done

# ---- glnbody commands and options ---------------------------------------
# Every "glnbody WORD" in a code line or a `quote`, with the options after it.
awk '/^```/ { code = !code; next }
     code { print; next }
     { n = split($0, q, "`"); for (i = 2; i <= n; i += 2) print q[i] }' "$readme" |
    grep -o -E '(\./)?glnbody [a-z][a-z0-9]*( [^|;#]*)?' | sed 's/^\.\///' > "$work/cmds"
while read -r _ cmd rest; do
    if [ "$cmd" = help ]; then      # glnbody help COMMAND
        cmd=${rest%% *}; rest=
        case $cmd in [A-Z]*) continue ;; esac     # a placeholder: glnbody help CMD
    fi
    case $cmd in
        run|md|forces|compare|bench|precision|newton3|view|report|shaders) ;;
        *) bad "README.md quotes 'glnbody $cmd', which is not a command"; continue ;;
    esac
    build/glnbody "$cmd" --help > "$work/help" 2>&1 || { bad "glnbody $cmd --help fails"; continue; }
    for o in $(printf '%s\n' "$rest" | grep -o -E '(^| )--[a-z][a-z0-9-]*' | sed 's/^ //'); do
        grep -q -e "$o" "$work/help" || bad "README.md quotes 'glnbody $cmd $o'; glnbody $cmd --help has no $o"
    done
done < "$work/cmds"

# ---- the C example, built as the README says ----------------------------
awk '/readme-example/ { f = 1; next } f && /^```c/ { g = 1; next } g && /^```/ { exit } g' \
    "$readme" > "$work/prog.c"
if [ ! -s "$work/prog.c" ]; then
    bad "README.md has no C example after a readme-example mark"
elif ! ${MAKE:-make} -s install PREFIX="$work/prefix" > "$work/install.log" 2>&1; then
    bad "make install PREFIX=... failed: $(tail -n 3 "$work/install.log")"
else
    export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
    if ! cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$work/prog.c" \
            $(pkg-config --cflags --libs glnbody) -o "$work/prog" 2> "$work/cc.log"; then
        bad "the C example does not build: $(head -n 5 "$work/cc.log")"
    elif LD_LIBRARY_PATH="$work/prefix/lib" "$work/prog" > "$work/out" 2>&1; then
        grep -q -E 'a0 = \(0\.99' "$work/out" || bad "the C example printed: $(cat "$work/out")"
    elif grep -q -i -E 'egl|context|display' "$work/out"; then
        echo "check_readme: the C example built; its run skipped (no GL context: $(head -n 1 "$work/out"))"
    else
        bad "the C example failed: $(cat "$work/out")"
    fi
    pkg-config --exists g6gl || bad "an installed copy has no g6gl.pc, which the README's GRAPE-6 line uses"
fi

if [ "$fail" -ne 0 ]; then
    echo "check_readme: README.md does not match the tree" >&2
    exit 1
fi
echo "check_readme: README.md matches the tree ($lines lines, $suites suites, $replays replays, $packages packages; the C example ran)"
