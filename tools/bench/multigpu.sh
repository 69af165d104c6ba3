#!/bin/bash
# multigpu.sh - strong scaling of `glnbody run` over the GPUs of one host,
# one Open MPI rank per GPU.
#
# usage: OUT=DIR bash tools/bench/multigpu.sh   (on the GPU machine, from the project root)
# The program is built on Debian 12 and packed as .gl/bundle.tgz; .gl holds
# the GL loader packages and .ompi Open MPI's, as tools/bench/env.sh says:
#   make && strip -o /tmp/glnbody build/glnbody && tar -czf .gl/bundle.tgz -C /tmp glnbody
# then carry .gl, .ompi and spirv.  Here, on llvmpipe, small and quick:
#   LOCAL=1 NS="2048" PS="1 2 3" T_END=0.015625 OUT=/tmp/mg bash tools/bench/multigpu.sh
#
# Per N in NS (default "262144 1048576"), per precision mode in MODES ("A
# H"), per rank count P in PS (default 1 2 4 8 up to the GPUs present): a
# Plummer sphere of N bodies to T_END (0.0625) with --predict gpu on the
# compute engine, P = 1 included, under mpirun.  Each run gives the
# block-step loop's seconds per N-body time unit, t_comm as PCIe + MPI,
# how many evaluations were split over i, over j or computed whole on
# every rank, the exact energies at the start and the end (O(N^2) in
# double, shared over the ranks) and the loop with them, and the cost model's prediction of the same evaluations
# (Belleman et al. 2008 eq. 10 with the exchange, from the program's
# summary) beside the measurement.  Precision H's --output must be
# byte-identical for every P.  GLNBODY_MPI_SPLIT and the GLNBODY_MPI_*
# cost parameters pass through to the program (tools/docs/multigpu.md).
#
# Environment: NS, MODES, PS, T_END, LIMIT (seconds a run, 280), OUTPUT
# (1: write --output and compare precision H's; 0: none), WARMUP (1: one
# short run on the most ranks first, to fill the driver's shader cache),
# LOCAL (1: no device setup, the local build and llvmpipe).
# $OUT gets scaling.csv, model.csv, identical.txt and each run's log.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ "${LOCAL:-0}" != 1 ]; then
    [ -d .ompi ] || { echo "multigpu.sh: fill .ompi/ first (see tools/bench/env.sh)" >&2; exit 1; }
    [ -f .gl/bundle.tgz ] && tar -xzf .gl/bundle.tgz -C .
    env_sh=tools/bench/env.sh
    [ -f "$env_sh" ] || env_sh=tools/device_env.sh
    source "$env_sh" > /dev/null
fi
# the carried binary (./glnbody from .gl/bundle.tgz), else the build's
BIN=./glnbody
[ "${LOCAL:-0}" = 1 ] || [ ! -x "$BIN" ] && BIN=build/glnbody
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export NCCL_NVLS_ENABLE=0       # never NVLink multicast on shared machines
NS=${NS:-"262144 1048576"}; T_END=${T_END:-0.0625}; MODES=${MODES:-"A H"}
LIMIT=${LIMIT:-280}; OUTPUT=${OUTPUT:-1}; WARMUP=${WARMUP:-1}
[ -x "$BIN" ] || { echo "multigpu.sh: no build/glnbody nor ./glnbody (build it, or carry .gl/bundle.tgz)" >&2; exit 1; }
if command -v nvidia-smi > /dev/null; then
    GPUS=$(nvidia-smi -L | wc -l)
    nvidia-smi -L > "$OUT/gpus.txt"
else
    GPUS=2
    echo "no nvidia-smi: ranks share the default GL device" > "$OUT/gpus.txt"
fi
if [ -z "${PS:-}" ]; then
    PS=""; for p in 1 2 4 8; do [ $p -le "$GPUS" ] && PS="$PS $p"; done
fi
MAXP=$(echo $PS | tr ' ' '\n' | sort -n | tail -1)
MPIRUN="mpirun --bind-to none --oversubscribe"

# field LOG PATTERN: the first number after PATTERN in the run's summary
field() { grep -o "$2 [0-9.e+-]*" "$1" | head -1 | awk '{ print $NF }'; }
# model LOG P: the model's t_force + t_comm on P GPUs (1, 2, 4, 8)
model() { grep -o "[ ,:] $2 GPUs\? [0-9.e+-]* s" "$1" | head -1 | awk '{ print $(NF-1) }'; }
# num VALUE: the value if it is a finite number, else the run failed
num() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/) }'; }

if [ "$WARMUP" = 1 ]; then
    timeout -k 10 "$LIMIT" $MPIRUN -np "$MAXP" "$BIN" run --n 16384 --t-end 0.0078125 \
        --predict gpu --backend compute --quiet > "$OUT/warmup.log" 2>&1 ||
        echo "multigpu.sh: the warm-up run failed (see warmup.log)" >&2
fi

echo "n,t_end,precision,gpus,wall_s,t_host_s,t_force_s,t_comm_s,pcie_s,mpi_s,diag_s,block_steps,split_i,split_j,split_whole,loop_s_per_time_unit,speedup,efficiency,model_loop_s_per_time_unit,model_speedup,energies_s,loop_with_energies_s_per_time_unit,energy_error" \
    > "$OUT/scaling.csv"
echo "n,precision,gpus,model_loop_s_per_time_unit,model_speedup,model_efficiency" > "$OUT/model.csv"
: > "$OUT/identical.txt"
fail=0
for N in $NS; do
for mode in $MODES; do
    base=; th1=; m1=
    for p in $PS; do
        log=$OUT/run_${N}_${mode}_${p}.log
        out=$OUT/final_${N}_${mode}_$p.txt
        rm -f "$out"
        args="run --n $N --seed 1 --t-end $T_END --predict gpu --backend compute --precision $mode"
        [ "$OUTPUT" = 1 ] && args="$args --output $out"
        s=$(date +%s.%N)
        timeout -k 10 "$LIMIT" $MPIRUN -np "$p" "$BIN" $args > "$log" 2>&1
        rc=$?
        e=$(date +%s.%N)
        wall=$(awk "BEGIN { printf \"%.2f\", $e - $s }")
        echo "== N $N, precision $mode, $p GPU(s): exit $rc, wall $wall s" >&2
        grep -E "rror|time split|parallel over|model|energy error" "$log" | head -6 >&2
        [ $rc = 0 ] || { fail=1; continue; }
        th=$(field "$log" "t_host"); tf=$(field "$log" "t_force"); tc=$(field "$log" "t_comm")
        dg=$(field "$log" "diagnostics and output"); bs=$(field "$log" "^block steps")
        pc=$(field "$log" "PCIe"); mp=$(field "$log" "+ MPI")
        si=$(field "$log" "split over i"); sj=$(field "$log" "over j"); sw=$(field "$log" "every rank")
        de=$(grep -o "E0)/|E0| = [0-9.e+-]*" "$log" | awk '{ print $NF }')
        en=$(grep -o "[0-9.]* s of energies" "$log" | head -1 | awk '{ print $1 }')
        mp_p=$(model "$log" "$p")
        for v in "$th" "$tf" "$tc" "$dg" "$de" "$en"; do
            num "$v" || { echo "multigpu.sh: $log: a summary number is missing or not finite" >&2; fail=1; continue 2; }
        done
        loop=$(awk "BEGIN { printf \"%.2f\", ($th + $tf + $tc) / $T_END }")
        loop_en=$(awk "BEGIN { printf \"%.2f\", ($th + $tf + $tc + $en) / $T_END }")
        [ "$p" = 1 ] && base=$loop
        speed=; eff=; ml=; ms=
        if [ -n "$base" ]; then
            speed=$(awk "BEGIN { printf \"%.2f\", $base / $loop }")
            eff=$(awk "BEGIN { printf \"%.2f\", $base / $loop / $p }")
        fi
        # the model from the 1-GPU run's blocks, with its measured t_host
        if [ "$p" = 1 ] && num "${mp_p:-x}"; then th1=$th; m1=$mp_p; fi
        mp1=$(model "$OUT/run_${N}_${mode}_1.log" "$p" 2> /dev/null)
        if [ -n "$th1" ] && num "${mp1:-x}"; then
            ml=$(awk "BEGIN { printf \"%.2f\", ($th1 + $mp1) / $T_END }")
            ms=$(awk "BEGIN { printf \"%.2f\", ($th1 + $m1) / ($th1 + $mp1) }")
        fi
        echo "$N,$T_END,$mode,$p,$wall,$th,$tf,$tc,${pc:-},${mp:-},$dg,$bs,${si:-},${sj:-},${sw:-},$loop,$speed,$eff,$ml,$ms,$en,$loop_en,$de" \
            >> "$OUT/scaling.csv"
    done
    # the model on 1, 2, 4 and 8 GPUs from the 1-GPU run, measured or not
    log1=$OUT/run_${N}_${mode}_1.log
    if [ -n "$th1" ]; then
        for p in 1 2 4 8; do
            mp1=$(model "$log1" "$p")
            num "${mp1:-x}" || continue
            awk -v n="$N" -v m="$mode" -v p="$p" -v th="$th1" -v m1="$m1" -v mp="$mp1" -v te="$T_END" \
                'BEGIN { printf "%s,%s,%d,%.2f,%.2f,%.2f\n", n, m, p, (th + mp) / te,
                         (th + m1) / (th + mp), (th + m1) / (th + mp) / p }' >> "$OUT/model.csv"
        done
    fi
    [ "$mode" = H ] && [ "$OUTPUT" = 1 ] || continue
    for p in $PS; do
        [ "$p" = 1 ] && continue
        ref=$OUT/final_${N}_${mode}_1.txt; got=$OUT/final_${N}_${mode}_$p.txt
        if [ -s "$ref" ] && cmp -s "$ref" "$got"; then same=byte-identical
        else same=DIFFERENT; fail=1; fi
        echo "N $N precision $mode: $p GPUs against 1: --output $same" | tee -a "$OUT/identical.txt" >&2
    done
done
done
# the final states are large: keep only their checksums
for f in "$OUT"/final_*.txt; do
    [ -f "$f" ] && md5sum "$f" >> "$OUT/final_md5.txt" && rm -f "$f"
done
cat "$OUT/scaling.csv" >&2
cat "$OUT/model.csv" >&2
exit $fail
