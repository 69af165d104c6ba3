#!/bin/bash
# usage: OUT=DIR bash tools/bench/multigpu.sh   (on the GPU machine, from the project root)
# multigpu.sh - strong scaling of `glnbody run` over the GPUs of one
# host, one Open MPI rank per GPU (the j-parallel scheme of Harfst et al.
# 2007): a Plummer sphere of N bodies to T_END with --predict gpu, in
# precision A and H, on P = 1, 2, 4, ... up to every GPU of the machine.
# For each run: wall seconds, the block-step loop's split (Portegies Zwart
# et al. 2007 eq. 10: t_host, t_force, t_comm, and t_comm as PCIe +
# MPI_Allreduce), the diagnostics' share, and seconds per N-body time unit
# of the block-step loop; precision H's --output must be byte-identical
# for every P.  Which GPU each rank drives is read from nvidia-smi while
# the 2-rank run is under way.
#
# Build on a Debian 12 machine and take the binary along:
#   make && strip -o /tmp/glnbody glnbody && tar -czf .gl/bundle.tgz -C /tmp glnbody
# then, from the project root, on a machine with several GPUs:
#   OUT=DIR N=1048576 bash tools/bench/multigpu.sh
#   (with .gl/, .ompi/ and spirv/ beside it; see tools/bench/env.sh)
# Environment: N (default 1048576), T_END (0.0625), MODES ("A H"),
# PS (default: 1 2 4 8 up to the GPUs present), LIMIT (seconds a run, 280),
# OUTPUT (1: write --output and compare precision H's; 0: no final file,
# whose text costs ~10 s a million bodies), WATCH (1: nvidia-smi's process
# list 20 s into each run; 0: none; at N = 4M it came while the ranks ran
# their long precision-G evaluation, and both lost their contexts).
# $OUT gets scaling.csv, identical.txt and each run's log.
set -u
[ -d .ompi ] || { echo "multigpu.sh: fill .ompi/ first (see tools/bench/env.sh)" >&2; exit 1; }
[ -f .gl/bundle.tgz ] && tar -xzf .gl/bundle.tgz -C .
source tools/bench/env.sh > /dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export NCCL_NVLS_ENABLE=0       # never NVLink multicast on shared machines
N=${N:-1048576}; T_END=${T_END:-0.0625}; MODES=${MODES:-"A H"}; LIMIT=${LIMIT:-280}
OUTPUT=${OUTPUT:-1}; WATCH=${WATCH:-1}
GPUS=$(nvidia-smi -L | wc -l)
if [ -z "${PS:-}" ]; then
    PS=""; for p in 1 2 4 8; do [ $p -le "$GPUS" ] && PS="$PS $p"; done
fi
nvidia-smi -L | tee "$OUT/gpus.txt" >&2

# field LOG PATTERN: the first number after PATTERN in the run's summary
field() { grep -o "$2 [0-9.e+-]*" "$1" | head -1 | awk '{ print $NF }'; }

echo "n,t_end,precision,gpus,wall_s,t_host_s,t_force_s,t_comm_s,pcie_s,mpi_s,diag_s,block_steps,loop_s_per_time_unit,energy_error" \
    > "$OUT/scaling.csv"
for mode in $MODES; do
    for p in $PS; do
        log=$OUT/run_${N}_${mode}_${p}.log
        args="run --n $N --seed 1 --t-end $T_END --predict gpu --backend compute --precision $mode"
        [ "$OUTPUT" = 1 ] && args="$args --output /tmp/out_${mode}_$p.txt"
        if [ "$p" = 1 ]; then
            cmd="timeout -k 10 $LIMIT build/glnbody $args"
        else
            cmd="timeout -k 10 $LIMIT mpirun --bind-to none -np $p build/glnbody $args"
        fi
        # GL contexts are listed as graphics processes, with their GPU
        watcher=
        if [ "$WATCH" = 1 ]; then
            ( sleep 20; nvidia-smi | sed -n '/Processes/,$p' ) > "$OUT/placement_${mode}_$p.txt" 2>&1 &
            watcher=$!
        fi
        s=$(date +%s.%N)
        $cmd > "$log" 2>&1
        rc=$?
        e=$(date +%s.%N)
        [ -n "$watcher" ] && kill $watcher 2> /dev/null
        wall=$(awk "BEGIN { printf \"%.2f\", $e - $s }")
        echo "== N $N, precision $mode, $p GPU(s): exit $rc, wall $wall s" >&2
        grep -E "rror|time split|j-parallel|energy error|block steps" "$log" | head -6 >&2
        [ $rc = 0 ] || continue
        th=$(field "$log" "t_host"); tf=$(field "$log" "t_force"); tc=$(field "$log" "t_comm")
        dg=$(field "$log" "diagnostics and output"); bs=$(field "$log" "^block steps")
        pc=$(field "$log" "PCIe"); mp=$(field "$log" "MPI_Allreduce")
        de=$(grep -o "E0)/|E0| = [0-9.e+-]*" "$log" | awk '{ print $NF }')
        loop=$(awk "BEGIN { printf \"%.2f\", ($th + $tf + $tc) / $T_END }")
        echo "$N,$T_END,$mode,$p,$wall,$th,$tf,$tc,${pc:-},${mp:-},$dg,$bs,$loop,$de" \
            >> "$OUT/scaling.csv"
    done
    for p in $PS; do
        [ "$p" = 1 ] || [ "$OUTPUT" != 1 ] && continue
        if cmp -s "/tmp/out_${mode}_1.txt" "/tmp/out_${mode}_$p.txt"; then same=byte-identical
        else same=DIFFERENT; fi
        echo "N $N precision $mode: $p GPUs against 1: --output $same" | tee -a "$OUT/identical.txt" >&2
    done
done
cat "$OUT/scaling.csv" >&2
