#!/bin/sh
# check_exports.sh LIB.so HEADER - the shared library exports exactly the
# functions HEADER declares NB_API, in itself and in the parts it includes
# as "glnbody/NAME.h" (beside it): none of the library's internal names
# leaks (they are compiled -fvisibility=hidden), and none of the declared
# ones is missing.  Exits 1, listing both kinds, otherwise 0.
set -u
lib=${1:?usage: check_exports.sh LIB.so HEADER}
header=${2:?usage: check_exports.sh LIB.so HEADER}
[ -r "$lib" ] || { echo "check_exports: $lib: no such library" >&2; exit 1; }
[ -r "$header" ] || { echo "check_exports: $header: no such header" >&2; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The header's parts, then the declared names: on each NB_API line, the
# identifier before the "(".
dir=$(dirname "$header")
files=$header
for part in $(sed -n 's/^#include "\(glnbody\/[a-z_]*\.h\)"$/\1/p' "$header"); do
    [ -r "$dir/$part" ] || { echo "check_exports: $header includes $part, not in $dir" >&2; exit 1; }
    files="$files $dir/$part"
done
# shellcheck disable=SC2086  # the file names hold no spaces: they are ours
sed -n 's/^NB_API[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' $files |
    sort -u > "$tmp/declared"
# The exported names: the dynamic symbols the library defines.
nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/exported"

status=0
leaked=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$leaked" ]; then
    echo "check_exports: $lib exports names $header does not declare NB_API:"
    echo "$leaked" | sed 's/^/    /'
    status=1
fi
if [ -n "$missing" ]; then
    echo "check_exports: $lib lacks functions $header declares NB_API:"
    echo "$missing" | sed 's/^/    /'
    status=1
fi
[ $status -eq 0 ] &&
    echo "check_exports: $lib exports exactly the $(wc -l < "$tmp/declared") NB_API functions of $header"
exit $status
