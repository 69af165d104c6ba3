#!/bin/bash
# usage: OUT=DIR bash tools/bench/mpi.sh   (on the GPU machine, from the project root)
# mpi.sh - j-parallel runs over Open MPI (Harfst et al. 2007) on the
# GPU machine, the ranks sharing its one GPU (each its own GL context):
#   1. correctness: tests/check_mpi (1, 2, 3 ranks; precision H byte for
#      byte, A to float rounding, forces, a rank-1 fault), and a 2-rank run
#      against the single process at N = 65536 in precision H, byte for byte;
#   2. the cost of the MPI layer: `glnbody run` at N = 65536 and 262144,
#      compute backend, --predict gpu and host, precision A, as one process
#      (no mpirun) and on 2 ranks, median wall of 3 runs, with rank 0's
#      split t_comm = PCIe + MPI_Allreduce (mpi_runs.csv);
#   3. MPI_Allreduce alone on 2, 4 and 8 ranks, the block step's message
#      (56 bytes a block particle) from 1 to 2^18 particles (allreduce.csv),
#      and the fit of t = alpha ceil(log2 P) + 2 (P-1)/P m / B with the model
#      table (tools/bench/fit_mpi_model.py -> mpi_model.txt).
# Open MPI comes from Debian packages in .ompi/ (tools/bench/env.sh), which
# env.sh unpacks into /tmp/ompi.  Build here first (Debian 12):
#   make && make tests/check_mpi build/mpi_allreduce_bench
# then, from the project root (about 4 minutes on the H200):
#   OUT=DIR bash tools/bench/mpi.sh
#   (from a build of this tree: glnbody, spirv, tests/check_mpi,
#    build/mpi_allreduce_bench; on a machine without libEGL, libepoxy or
#    Open MPI, the Debian packages in .gl/ and .ompi/ that
#    tools/bench/env.sh unpacks)
set -u
[ -d .ompi ] || { echo "mpi.sh: fill .ompi/ first (see tools/bench/env.sh)" >&2; exit 1; }
source tools/bench/env.sh      # unpacks .gl and .ompi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN="timeout -k 10 300 mpirun --oversubscribe"
mpirun --version | head -1 >&2

# ---- 1. correctness ------------------------------------------------------
build/tests/check_mpi > "$OUT/check_mpi.log" 2>&1
echo "check_mpi: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_mpi.log")" >&2
args="run --n 65536 --t-end 0.03125 --precision H --predict gpu --quiet"
build/glnbody $args --output "$OUT/h1.txt" --energy-log "$OUT/h1.csv"
$MPIRUN -np 2 build/glnbody $args --output "$OUT/h2.txt" --energy-log "$OUT/h2.csv"
same=NO
cmp -s "$OUT/h1.txt" "$OUT/h2.txt" && cmp -s "$OUT/h1.csv" "$OUT/h2.csv" && same=yes
echo "N = 65536, precision H, predict gpu: 2 ranks byte for byte the single process: $same" |
    tee "$OUT/identical.txt" >&2
rm -f "$OUT"/h[12].txt

# ---- 2. the MPI layer's cost ---------------------------------------------
split() {   # a run's summary as CSV fields: block steps, t_force, t_comm, wall, PCIe, MPI
            # (the last two empty for one process)
    sed -n -e 's/^block steps \([0-9]*\),.*/bs=\1/p' \
           -e 's/.*t_force \([^ ]*\) s, t_comm \([^ ]*\) s;.*wall \([^ ]*\) s/tf=\1 tc=\2 wall=\3/p' \
           -e 's/.*t_comm = PCIe \([^ ]*\) s + MPI_Allreduce \([^ ]*\) s/pcie=\1 mpi=\2/p' |
    tr '\n' ' ' | sed 's/[a-z]*=//g; s/ *$//; s/ /,/g' | awk -F, 'NF == 4 { $0 = $0 ",," } 1'
}
echo "n,predict,ranks,rep,block_steps,t_force,t_comm,wall,pcie,mpi" > "$OUT/mpi_runs.csv"
for n in 65536 262144; do
    t=$([ $n -le 65536 ] && echo 0.125 || echo 0.03125)
    for predict in gpu host; do
        for ranks in 1 2; do
            for rep in 1 2 3; do
                a="run --n $n --t-end $t --predict $predict --backend compute"
                if [ $ranks = 1 ]; then out=$(build/glnbody $a 2>&1)
                else out=$($MPIRUN -np $ranks build/glnbody $a 2>&1); fi ||
                    { echo "FAILED: $ranks ranks: $a: $out" >&2; continue; }
                echo "$n,$predict,$ranks,$rep,$(echo "$out" | split)"
            done
        done
    done
done | tee -a "$OUT/mpi_runs.csv"

# ---- 3. MPI_Allreduce alone and the model --------------------------------
for ranks in 2 4 8; do
    $MPIRUN -np $ranks build/mpi_allreduce_bench 262144
done | awk 'NR == 1 || !/^ranks/' > "$OUT/allreduce.csv"
cat "$OUT/allreduce.csv" >&2
python3 tools/bench/fit_mpi_model.py --allreduce "$OUT/allreduce.csv" \
    --hermite tools/results/archive/hermite_model_h200.txt --runs "$OUT/mpi_runs.csv" \
    > "$OUT/mpi_model.txt" 2>&1
cat "$OUT/mpi_model.txt" >&2   # (without python3 there: run the fit here on the CSVs)
