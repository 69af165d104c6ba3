#!/bin/sh
# check_layers.sh - the layout's rules, read off the object files (nm) and
# the includes, so that they hold by construction rather than by review:
#   - the arrows point one way: tools/glnbody -> src -> host;
#   - host/ includes no header of src/ or tools/;
#   - no two files of src/ call each other, directly or through others.
# Run from the project root after a build (make check-layers).
set -u
status=0

bad=$(grep -l '#include "\(nb_gl\|gl_internal\|cli\|md_triangular\)' host/*.c host/*.h 2>/dev/null)
if [ -n "$bad" ]; then
    echo "host/ includes a header of src/ or tools/:"; echo "$bad"; status=1
fi

# "file kind symbol" lines: D for a definition, U for a use.
symbols() {
    for o in "$@"; do
        nm "$o" | awk -v f="$o" '$1 == "U" { print f, "U", $2; next }
                                  NF == 3 && $2 ~ /^[TDBR]$/ { print f, "D", $3 }'
    done
}
table=$(mktemp) || exit 1
trap 'rm -f "$table"' EXIT
symbols host/*.o src/*.o tools/glnbody/*.o > "$table"

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

[ $status -eq 0 ] && echo "layers: host <- src <- tools/glnbody, no cycle in src/"
exit $status
