#!/bin/bash
# device_pieces.sh - the Hermite block step with its GAJ in pieces (the
# host corrects piece k while the GPU computes the pieces after it) on the
# GPU machine: the GAJ and Hermite suites, then `glnbody run --predict gpu`
# on the same Plummer sphere at N = 16k, 64k and 256k with whole blocks
# (GLNBODY_BLOCK_PIECES=1) and 2, 4, 8 and auto pieces, three runs each,
# with the t_host/t_force/t_comm split (Portegies Zwart et al. 2007 eq. 10).
# Run from the project root (about 5 minutes on an H100/H200):
#   run(command="bash tools/device_pieces.sh",
#       carry=[".gl", "glnbody", "spirv", "tests/check_gpu", "tests/check_run_gpu"])
# ($OUT gets summary.txt, the suites' logs and pieces.csv: one row a run,
# with the force share t_force / (t_host + t_force + t_comm).)
set -u
source tools/device_env.sh
source tools/hermite_lib.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
for t in check_gpu check_run_gpu; do
    tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")" | tee -a "$S" >&2
done
echo "pieces,rep,$HERMITE_CSV_HEADER,force_share" > "$OUT/pieces.csv"
for n in ${PIECES_SIZES:-16384 65536 262144}; do
    t=0.25
    [ $n -ge 262144 ] && t=0.125
    for rep in 1 2 3; do
        for p in ${PIECES_LIST:-1 2 4 8 auto}; do
            row=$(GLNBODY_BLOCK_PIECES=$p run $n compute gpu 0.02 $t)
            echo "$p,$rep,$row" | awk -F, '{ w = $11 + $12 + $13
                printf "%s,%.3f\n", $0, (w > 0 ? $12 / w : 0) }'
        done
    done
done | tee -a "$OUT/pieces.csv"
