#!/bin/sh
# check_layers.sh [LIB.so [BUILD]] - the layout's rules, read off the object files
# (nm) and the includes, so that they hold by construction rather than by
# review:
#   - the arrows point one way: tools/glnbody -> src -> host;
#   - host/ includes no header of src/ or tools/;
#   - no two files of src/ call each other, directly or through others;
#   - the program is a client of the public API: tools/glnbody includes no
#     project header but glnbody.h and its own, and every library symbol
#     it uses is one the shared library LIB.so (default
#     build/libglnbody.so) exports.
# The objects are those under BUILD (default build).  Run from the project
# root after a build (make check-layers).
set -u
status=0
lib=${1:-build/libglnbody.so}
obj=${2:-build}

bad=$(grep -l '#include "\(nb_gl\|gl_internal\|cli\|md_triangular\)' host/*.c host/*.h 2>/dev/null)
if [ -n "$bad" ]; then
    echo "host/ includes a header of src/ or tools/:"; echo "$bad"; status=1
fi

# The program's includes: system headers, glnbody.h and its own headers.
own=$(cd tools/glnbody && ls *.h)
bad=$(grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' tools/glnbody/*.c tools/glnbody/*.h |
      while IFS= read -r line; do
          name=$(echo "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
          case " glnbody.h $(echo $own) " in
              *" $name "*) ;;
              *) echo "$line" ;;
          esac
      done)
if [ -n "$bad" ]; then
    echo "tools/glnbody includes a project header other than glnbody.h and its own:"
    echo "$bad"; status=1
fi

# The program's library symbols: each one exported by the shared library.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if [ -r "$lib" ]; then
    nm -u "$obj"/tools/glnbody/*.o | awk 'NF == 2 { print $2 }' | sort -u > "$tmp/used"
    nm -g --defined-only "$obj"/host/*.o "$obj"/src/*.o |
        awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort -u > "$tmp/library"
    nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/exported"
    internal=$(comm -12 "$tmp/used" "$tmp/library" | comm -23 - "$tmp/exported")
    if [ -n "$internal" ]; then
        echo "tools/glnbody uses library symbols $lib does not export (not in glnbody.h):"
        echo "$internal" | sed 's/^/    /'; status=1
    fi
else
    echo "check_layers: $lib: no such library (make first)"; status=1
fi

# libg6gl (tools/g6/) stands on the public API alone: glnbody.h and its own
# header, and no library symbol the shared library does not export.
bad=$(grep -h '#include "' tools/g6/*.c tools/g6/*.h 2>/dev/null | grep -v '"\(glnbody\|g6gl\)\.h"')
if [ -n "$bad" ]; then
    echo "tools/g6/ includes more than glnbody.h:"; echo "$bad"; status=1
fi
if [ -f "$obj/tools/g6/g6gl.o" ] && [ -r "$lib" ]; then
    nm -u "$obj/tools/g6/g6gl.o" | awk 'NF == 2 { print $2 }' | sort -u > "$tmp/g6used"
    internal=$(comm -12 "$tmp/g6used" "$tmp/library" | comm -23 - "$tmp/exported")
    if [ -n "$internal" ]; then
        echo "tools/g6 uses library symbols $lib does not export (not in glnbody.h):"
        echo "$internal" | sed 's/^/    /'; status=1
    fi
fi

# "file kind symbol" lines: D for a definition, U for a use.
symbols() {
    for o in "$@"; do
        nm "$o" | awk -v f="$o" '$1 == "U" { print f, "U", $2; next }
                                  NF == 3 && $2 ~ /^[TDBR]$/ { print f, "D", $3 }'
    done
}
table=$tmp/table
(cd "$obj" && symbols host/*.o src/*.o tools/glnbody/*.o) > "$table"

# Every use resolved to the file that defines it, as "user definer" edges.
edges=$(awk '$2 == "D" { def[$3] = $1; next }
             $2 == "U" && ($3 in def) { print $1, def[$3] }' "$table" "$table" | sort -u)

upward=$(echo "$edges" | awk '
    function layer(f) { return f ~ /^host\// ? 0 : f ~ /^src\// ? 1 : 2 }
    NF == 2 && layer($1) < layer($2) { print $1 " uses " $2 }')
if [ -n "$upward" ]; then
    echo "a lower layer calls a higher one:"; echo "$upward"; status=1
fi

# Cycles among src/ files: the transitive closure of the call graph.
cycles=$(echo "$edges" | awk '
    BEGIN { n = 0 }
    NF == 2 && $1 ~ /^src\// && $2 ~ /^src\// && $1 != $2 {
        if (!($1 in id)) { id[$1] = n; name[n++] = $1 }
        if (!($2 in id)) { id[$2] = n; name[n++] = $2 }
        reach[id[$1], id[$2]] = 1
    }
    END {
        for (k = 0; k < n; k++)
            for (i = 0; i < n; i++)
                if (reach[i, k])
                    for (j = 0; j < n; j++)
                        if (reach[k, j]) reach[i, j] = 1
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++)
                if (reach[i, j] && reach[j, i]) print name[i] " <-> " name[j]
    }')
if [ -n "$cycles" ]; then
    echo "files of src/ that call each other (directly or through others):"
    echo "$cycles"; status=1
fi

[ $status -eq 0 ] && echo "layers: host <- src <- tools/glnbody, no cycle in src/;" \
    "the program uses only glnbody.h and symbols $lib exports"
exit $status
