# hermite_lib.sh - sourced by the device Hermite scripts: run one Plummer
# integration and print its summary as a CSV row.
HERMITE_CSV_HEADER="n,backend,predict,eta,t_end,de_rel,block_steps,particle_steps,t_host,t_force,t_comm,wall"
summary() {   # the run's summary lines as CSV fields
    sed -n -e 's/.*relative energy error (E - E0)\/|E0| = \([^,]*\),.*/de=\1/p' \
           -e 's/^block steps \([0-9]*\), particle steps \([0-9]*\).*/bs=\1 ps=\2/p' \
           -e 's/.*t_host \([^ ]*\) s, t_force \([^ ]*\) s, t_comm \([^ ]*\) s;.*wall \([^ ]*\) s/th=\1 tf=\2 tc=\3 wall=\4/p' |
    tr '\n' ' ' | sed 's/[a-z]*=//g'
}
run() {   # n backend predict eta t_end
    local out
    out=$(build/glnbody run --ic plummer --n $1 --seed 1 --backend $2 --predict $3 --eta $4 \
          --t-end $5 --softening 0.01 2>&1) || { echo "FAILED: $*: $out" >&2; return; }
    echo "$1,$2,$3,$4,$5,$(echo "$out" | summary | sed 's/ *$//; s/ /,/g')"
}
