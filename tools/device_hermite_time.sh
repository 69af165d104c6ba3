#!/bin/bash
# device_hermite_time.sh - wall-clock seconds per N-body time unit against
# N with the t_host/t_force/t_comm split (seed 001 Table 2, eq. 10),
# measured over t = 0..0.25 (multiply by 4 for one time unit).
set -u
source tools/device_env.sh
source tools/hermite_lib.sh
echo "$HERMITE_CSV_HEADER" > "$OUT/hermite_time.csv"
for n in 1024 4096 16384 65536 262144; do
    run $n compute gpu 0.02 0.25
    run $n compute host 0.02 0.25
    [ $n -le 16384 ] && run $n fragment host 0.02 0.25
    [ $n -le 16384 ] && run $n cpu host 0.02 0.25
done | tee -a "$OUT/hermite_time.csv"
