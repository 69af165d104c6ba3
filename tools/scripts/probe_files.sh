#!/bin/bash
# Hostile cases for glnbody's files: wrong files at a checkpoint's stored
# paths, hand-edited checkpoints, one file under two roles, full disks,
# signals at every phase followed by restarts, other processes writing the
# same files, and symbolic-link tricks.  CPU backend only (no GPU needed).
#
#   bash tools/scripts/probe_files.sh [BIN] [OUTDIR]
#
# BIN defaults to build/glnbody, OUTDIR to $OUT or ./probe_files.out; writes
# OUTDIR/probe_files.csv (class,case,expected,exit,result) and prints one
# line per failed case and a summary per class.  Exit 0 when all pass.
set -u
BIN=$(realpath "${1:-build/glnbody}")
OUTDIR=$(realpath -m "${2:-${OUT:-probe_files.out}}")
mkdir -p "$OUTDIR"
RES="$OUTDIR/probe_files.csv"
echo "class,case,expected,exit,result" > "$RES"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SUM() {    # what is at a path: a regular file's cksum, else its type
    if [ -L "$1" ]; then stat -c '%N' "$1"; [ -f "$1" ] && cksum < "$1"
    elif [ -f "$1" ]; then cksum < "$1"
    elif [ -e "$1" ]; then stat -c '%F' "$1"; else echo none; fi
}

fresh() { cd "$W" && rm -rf d && mkdir d && cd d || exit 2; }
R() { "$BIN" "$@" > out.txt 2> err.txt; echo $?; }
record() {  # class case expected exit ok(0/1)
    local r=pass
    [ "$5" = 0 ] || { r=FAIL; echo "FAIL: $1 $2 (expected $3, exit $4): $(head -c 300 err.txt 2>/dev/null)"; }
    echo "$1,$2,${3//,/;},$4,$r" >> "$RES"
}
no_tmp() { ! ls -a | grep -q '\.tmp\.'; }
one_line() { [ "$(wc -l < err.txt)" = 1 ] && ! grep -q '(null)' err.txt; }
# A refusal: exit $1, one line naming $2, the file $3 as it was ($4: its
# cksum before), no temporary left.
refused() {
    local want=$1 name=$2 file=$3 before=$4 rc=$5
    [ "$rc" = "$want" ] && one_line && grep -q -- "$name" err.txt &&
        [ "$(SUM "$file")" = "$before" ] && no_tmp
}
RUNF=(--backend cpu --n 32 --seed 3 --quiet)
MDF=(md --backend cpu --cells 3 --cutoff 2.5 --seed 5 --quiet --thermo-every 2)
big() { yes 'IMPORTANT DATA' | head -c 200000 > "$1"; }

# ---- 1. wrong files at the restart's stored paths ------------------------
leg1() { R run "${RUNF[@]}" --t-end 0.5 --energy-log e.csv --checkpoint c.ck > /dev/null; }
wrong_log() {  # case setup expect(refuse|accept)
    fresh; leg1; cp e.csv orig.csv
    eval "$2"
    local before; before=$(SUM e.csv)
    local rc; rc=$(R run --restart c.ck --t-end 1 --quiet)
    if [ "$3" = refuse ]; then refused 1 "e.csv" e.csv "$before" "$rc"; else
        [ "$rc" = 0 ] && R run "${RUNF[@]}" --t-end 1 --energy-log a.csv > /dev/null &&
            cmp -s a.csv e.csv && no_tmp; fi
    record stored-paths "run:$1" "$3" "$rc" $?
}
wrong_log foreign-1MB 'big e.csv' refuse
wrong_log empty ': > e.csv' refuse
wrong_log missing 'rm e.csv' refuse
wrong_log last-rows-cut 'head -n -2 orig.csv > e.csv' refuse
wrong_log last-row-kept 'head -n -1 orig.csv > e.csv' accept
wrong_log half 'head -c $(( $(stat -c %s orig.csv) / 2 )) orig.csv > e.csv' refuse
wrong_log first-byte 'printf X | dd of=e.csv bs=1 seek=0 conv=notrunc 2>/dev/null' refuse
wrong_log middle-byte 'printf 9 | dd of=e.csv bs=1 seek=300 conv=notrunc 2>/dev/null' refuse
wrong_log header-only 'head -n 1 orig.csv > e.csv' refuse
wrong_log directory 'rm e.csv; mkdir e.csv' refuse
wrong_log fifo 'rm e.csv; mkfifo e.csv' refuse
wrong_log symlink-foreign 'big f.txt; rm e.csv; ln -s f.txt e.csv' refuse
wrong_log another-run 'R run --backend cpu --n 32 --seed 4 --quiet --t-end 0.5 --energy-log e.csv >/dev/null' refuse
wrong_log same-length-other 'tr 0-9 1-90 < orig.csv > x; mv x e.csv' refuse
wrong_log copy-of-log 'cp orig.csv x; rm e.csv; mv x e.csv' accept
wrong_log rows-appended 'echo 9,9,9 >> e.csv' accept
wrong_log partial-row 'printf 0.6,1 >> e.csv' accept
wrong_log hard-link 'ln e.csv h.csv' accept
wrong_log symlink-to-log 'mv e.csv real.csv; ln -s real.csv e.csv' accept
wrong_log crlf 'sed "s/$/\r/" orig.csv > x; mv x e.csv' refuse
wrong_log chmod-readonly 'chmod 444 e.csv' accept

leg1md() { R "${MDF[@]}" --steps 10 --thermo t.csv --integrals i.csv --dump d.dump \
    --dump-every 5 --checkpoint m.ck > /dev/null; }
wrong_md() {  # case file setup
    fresh; leg1md
    eval "$3"
    local before; before=$(SUM "$2")
    local rc; rc=$(R md --restart m.ck --steps 20 --quiet)
    refused 1 "$2" "$2" "$before" "$rc"
    record stored-paths "md:$1" refuse "$rc" $?
}
for f in t.csv i.csv d.dump; do
    wrong_md "$f-foreign" $f "big $f"
    wrong_md "$f-missing" $f "rm $f"
    wrong_md "$f-shorter" $f "head -c 100 $f > x; mv x $f"
    wrong_md "$f-dir" $f "rm $f; mkdir $f"
done

# ---- 2. checkpoints edited by hand, their CRC made valid -----------------
edit_ck() {  # file from to  (same length; the CRC resealed, version 2)
    python3 - "$@" << 'EOF'
import sys, zlib, struct
path, a, b = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
d = bytearray(open(path, 'rb').read())
i = d.find(a)
assert i >= 0
if b == b'FLIP':        # the character after the text, changed
    j = i + len(a)
    d[j] = ord('1') if d[j] != ord('1') else ord('2')
else:
    assert len(a) == len(b)
    d[i:i + len(a)] = b
struct.pack_into('<I', d, len(d) - 4, zlib.crc32(bytes(d[:-4])))
open(path, 'wb').write(d)
EOF
}
edited() {  # case from to file-to-protect expect-fragment
    fresh; leg1; big f.csv; cp e.csv f2.csv
    edit_ck c.ck "$2" "$3"
    local before; before=$(SUM "$4")
    local rc; rc=$(R run --restart c.ck --t-end 1 --quiet)
    refused 1 "$5" "$4" "$before" "$rc"
    record edited-checkpoint "$1" refuse "$rc" $?
}
edited path-to-foreign energy-log=e.csv energy-log=f.csv f.csv "f.csv: not the file"
edited path-to-copy-differs energy-log=e.csv energy-log=g.csv g.csv "g.csv: not the file"
edited hash-changed resume-log-hash= FLIP e.csv "e.csv: not the file"
edited hash-removed resume-log-hash resume-log-hasX e.csv "records no hash"
edited bytes-changed resume-log-bytes= FLIP e.csv "e.csv: not the file"
fresh; leg1; cp c.ck bad.ck; printf '\x01' | dd of=bad.ck bs=1 seek=$(( $(stat -c %s c.ck) - 1 )) conv=notrunc 2>/dev/null
rc=$(R run --restart bad.ck --t-end 1 --quiet); refused 1 "CRC mismatch" e.csv "$(SUM e.csv)" "$rc"
record edited-checkpoint last-byte-flipped refuse "$rc" $?
for k in 2 3 4; do
    fresh; leg1; cp c.ck bad.ck; printf '\x80' | dd of=bad.ck bs=1 seek=$(( $(stat -c %s c.ck) - k )) conv=notrunc 2>/dev/null
    rc=$(R run --restart bad.ck --t-end 1 --quiet); refused 1 "CRC mismatch" e.csv "$(SUM e.csv)" "$rc"
    record edited-checkpoint "byte-end-minus-$k" refuse "$rc" $?
done

# ---- 3. one file under two roles -------------------------------------------
role() {  # case expect-exit fragment args...
    local name=$1 want=$2 frag=$3; shift 3
    fresh; printf '1 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n3 1 0 1 0 0 0 0\n' > in.txt
    mkdir sub; ln in.txt hard.txt; ln -s in.txt link.txt; ln -s new.txt dangling
    ln -s sub subl
    local before; before=$(SUM in.txt)
    local rc; rc=$(R "$@")
    refused "$want" "$frag" in.txt "$before" "$rc" && [ ! -e new.txt ] && [ ! -e s.txt ]
    record roles "$name" "exit $want" "$rc" $?
}
T=(--t-end 0.125)
role run-out-log 2 "one file" run "${RUNF[@]}" "${T[@]}" --output s.txt --energy-log s.txt
role run-out-ck 2 "one file" run "${RUNF[@]}" "${T[@]}" --output s.txt --checkpoint s.txt
role run-log-ck 2 "one file" run "${RUNF[@]}" "${T[@]}" --energy-log s.txt --checkpoint ./s.txt
role run-dotdot 2 "one file" run "${RUNF[@]}" "${T[@]}" --output sub/../s.txt --energy-log s.txt
role run-absolute 2 "one file" run "${RUNF[@]}" "${T[@]}" --output "$W/d/s.txt" --energy-log s.txt
role run-dirlink 2 "one file" run "${RUNF[@]}" "${T[@]}" --output subl/s.txt --energy-log sub/s.txt
role run-dangling 2 "one file" run "${RUNF[@]}" "${T[@]}" --output new.txt --energy-log dangling
role run-hardlink-in 2 "would replace" run --backend cpu --quiet --input in.txt --output hard.txt
role run-symlink-in 2 "would replace" run --backend cpu --quiet --input link.txt --energy-log in.txt
role run-in-ck 2 "would replace" run --backend cpu --quiet --input in.txt --checkpoint ./in.txt
role run-in-framedir 2 "numbered files" run "${RUNF[@]}" --t-end 0.25 --frames fr --frame-every 0.125 --energy-log fr/frame_00001.png
role run-snapdir-file 2 "not a directory" run "${RUNF[@]}" --t-end 0.25 --snapshot-dir in.txt --snapshot-every 0.125
role run-in-snapdir 2 "numbered files" run "${RUNF[@]}" --t-end 0.25 --snapshot-dir sn --snapshot-every 0.125 --output sn/snap_00002.txt
role run-snapdir-is-log 2 "one path" run "${RUNF[@]}" --t-end 0.25 --snapshot-dir s.txt --snapshot-every 0.125 --energy-log s.txt
role run-empty-out 2 "empty file name" run "${RUNF[@]}" "${T[@]}" --output ''
role run-empty-log 2 "empty file name" run "${RUNF[@]}" "${T[@]}" --energy-log ''
role run-empty-ck 2 "empty file name" run "${RUNF[@]}" "${T[@]}" --checkpoint ''
role md-thermo-dump 2 "one file" "${MDF[@]}" --steps 4 --thermo s.txt --dump s.txt --dump-every 2
role md-out-thermo 2 "one file" "${MDF[@]}" --steps 4 --thermo s.txt --output s.txt
role md-integrals 2 "one file" "${MDF[@]}" --steps 4 --integrals s.txt --dump ./s.txt --dump-every 2
role md-timing-ck 2 "one file" "${MDF[@]}" --steps 4 --timing s.txt --checkpoint s.txt
role md-input-out 2 "would replace" md --backend cpu --quiet --input in.txt --steps 2 --output hard.txt
role md-input-thermo 2 "would replace" md --backend cpu --quiet --input link.txt --steps 2 --thermo in.txt
role md-exclude-dump 2 "would replace" "${MDF[@]}" --steps 2 --exclude in.txt --dump in.txt --dump-every 1
role md-empty-dump 2 "empty file name" "${MDF[@]}" --steps 2 --dump '' --dump-every 1
role forces-same 2 "would replace" forces --input in.txt --output in.txt --softening 0.1 --backend cpu
role forces-dot 2 "would replace" forces --input in.txt --output ./in.txt --softening 0.1 --backend cpu
role forces-hard 2 "would replace" forces --input hard.txt --output in.txt --softening 0.1 --backend cpu
role forces-symlink 2 "would replace" forces --input in.txt --output link.txt --softening 0.1 --backend cpu
role forces-dirlink 2 "would replace" forces --input in.txt --output subl/../in.txt --softening 0.1 --backend cpu
role forces-empty 2 "empty file name" forces --input in.txt --output '' --softening 0.1 --backend cpu
role precision-csv 2 "would replace" precision --input in.txt --csv in.txt
fresh; R run "${RUNF[@]}" --t-end 0.125 --checkpoint c.ck > /dev/null
rc=$(R run --restart c.ck --t-end 0.25 --energy-log c.ck --quiet); refused 2 "would replace" c.ck "$(SUM c.ck)" "$rc"
record roles restart-log-is-checkpoint "exit 2" "$rc" $?
rc=$(R run --restart c.ck --t-end 0.25 --checkpoint ./c.ck --quiet); [ "$rc" = 0 ] && no_tmp
record roles restart-replaces-own-checkpoint "exit 0" "$rc" $?

# ---- 4. disks that fill ------------------------------------------------------
full() {  # case args...
    local name=$1; shift
    fresh; local rc; rc=$(R "$@")
    [ "$rc" = 1 ] && one_line && grep -q "/dev/full" err.txt && grep -q "No space" err.txt && no_tmp
    record full-disk "$name" "exit 1 naming /dev/full" "$rc" $?
}
full run-log run "${RUNF[@]}" "${T[@]}" --energy-log /dev/full
full run-output run "${RUNF[@]}" "${T[@]}" --output /dev/full
full run-checkpoint run "${RUNF[@]}" "${T[@]}" --checkpoint /dev/full
full md-thermo "${MDF[@]}" --steps 4 --thermo /dev/full
full md-dump "${MDF[@]}" --steps 4 --thermo t.csv --dump /dev/full --dump-every 2
full md-dump-xyz "${MDF[@]}" --steps 4 --thermo t.csv --dump /dev/full --dump-every 2 --dump-format xyz
full md-integrals "${MDF[@]}" --steps 4 --thermo t.csv --integrals /dev/full
full md-timing "${MDF[@]}" --steps 4 --thermo t.csv --timing /dev/full
full md-output "${MDF[@]}" --steps 4 --thermo t.csv --output /dev/full
full md-checkpoint "${MDF[@]}" --steps 4 --thermo t.csv --checkpoint /dev/full
fresh; printf '1 1 0 0 0 0 0 0\n2 1 1 0 0 0 0 0\n' > in.txt
rc=$(R forces --input in.txt --softening 0.1 --backend cpu --output /dev/full)
[ "$rc" = 1 ] && one_line && grep -q "/dev/full" err.txt && no_tmp
record full-disk forces-output "exit 1 naming /dev/full" "$rc" $?
# A small file system that fills in the middle of a run (root and tmpfs only).
if mkdir -p "$W/small" && mount -t tmpfs -o size=48k tmpfs "$W/small" 2>/dev/null; then
    for what in energy-log output checkpoint; do
        rm -rf "$W/small"/*; cd "$W/small"
        case $what in
            energy-log) "$BIN" run --backend cpu --quiet --n 200 --t-end 0.5 --log-every 0.001 --energy-log x.out > /dev/null 2> "$W/err.txt"; rc=$? ;;
            *) "$BIN" run --backend cpu --quiet --n 2000 --t-end 0 --$what x.out > /dev/null 2> "$W/err.txt"; rc=$? ;;
        esac
        cp "$W/err.txt" "$W/small.err"; cd "$W"; cp small.err err.txt; cd "$W/small"
        ok=1
        # The log keeps its whole rows; the others are made whole or not at all.
        [ "$rc" = 1 ] && [ "$(wc -l < "$W/err.txt")" = 1 ] && grep -q "x.out.*No space" "$W/err.txt" &&
            no_tmp && { [ ! -e x.out ] || { [ $what = energy-log ] && [ "$(tail -c 1 x.out | od -An -c | tr -d ' ')" = '\n' ]; }; } && ok=0
        record full-disk "tmpfs-48k-$what" "exit 1; nothing half-made" "$rc" $ok
    done
    cd "$W"; umount "$W/small"
fi

# ---- 5. signals at every phase, then restarts ---------------------------------
SIGF=(--backend cpu --seed 3 --quiet --n 200)
fresh; R run "${SIGF[@]}" --t-end 0.5 --energy-log a.csv --output a.txt > /dev/null
cp a.csv a.txt "$W"/
for sig in KILL INT TERM; do
    for delay in 0.005 0.03 0.1 0.3 0.8; do
        fresh; cp "$W"/a.csv "$W"/a.txt .
        "$BIN" run "${SIGF[@]}" --t-end 0.5 --energy-log e.csv --output b.txt \
            --checkpoint c.ck --checkpoint-every 0.0625 > /dev/null 2> err.txt &
        pid=$!; sleep $delay; kill -$sig $pid 2> /dev/null; wait $pid; rc=$?
        ok=1
        if no_tmp; then
            if [ -e c.ck ]; then
                R run --restart c.ck --quiet > /dev/null
                cmp -s a.txt b.txt && { [ ! -e e.csv ] || cmp -s a.csv e.csv; } && no_tmp && ok=0
            elif [ "$rc" = 0 ]; then cmp -s a.txt b.txt && ok=0
            else [ ! -e b.txt ] && ok=0; fi
        fi
        record signals "run-$sig-after-${delay}s" "no temporary; restart = uninterrupted" "$rc" $ok
    done
done
MDS=(md --backend cpu --cells 5 --cutoff 2.5 --seed 5 --quiet --thermo-every 2)
fresh; R "${MDS[@]}" --steps 60 --thermo a.csv --output a.txt > /dev/null; cp a.csv a.txt "$W"/
for sig in KILL INT TERM; do
    for delay in 0.01 0.1 0.3 0.6; do
        fresh; cp "$W"/a.csv "$W"/a.txt .
        "$BIN" "${MDS[@]}" --steps 60 --thermo e.csv --output b.txt \
            --checkpoint m.ck --checkpoint-every 10 > /dev/null 2> err.txt &
        pid=$!; sleep $delay; kill -$sig $pid 2> /dev/null; wait $pid; rc=$?
        ok=1
        if no_tmp; then
            if [ -e m.ck ]; then
                R md --restart m.ck --quiet > /dev/null
                cmp -s a.txt b.txt && cmp -s a.csv e.csv && no_tmp && ok=0
            elif [ "$rc" = 0 ]; then cmp -s a.txt b.txt && ok=0
            else [ ! -e b.txt ] && ok=0; fi
        fi
        record signals "md-$sig-after-${delay}s" "no temporary; restart = uninterrupted" "$rc" $ok
    done
done

# ---- 6. other processes on the same files -------------------------------------
race() {  # case action-during-run expected-fragment
    fresh
    "$BIN" run --backend cpu --n 64 --quiet --t-end 4000 --energy-log e.csv --checkpoint c.ck \
        --checkpoint-every 0.0625 > /dev/null 2> err.txt &
    local pid=$! k=0
    while [ ! -e e.csv ] && [ $k -lt 3000 ]; do sleep 0.01; k=$((k + 1)); done
    eval "$2"
    local t=0
    while kill -0 $pid 2> /dev/null && [ $t -lt 200 ]; do sleep 0.05; t=$((t + 1)); done
    kill -9 $pid 2> /dev/null; wait $pid; local rc=$?
    [ "$rc" = 1 ] && one_line && grep -q "$3" err.txt && no_tmp
    record races "$1" "exit 1: $3" "$rc" $?
}
race log-removed 'rm e.csv' "removed or replaced"
race log-replaced 'mv e.csv x.csv; echo mine > e.csv' "removed or replaced"
race log-replaced-by-copy 'cp e.csv x.csv; mv x.csv e.csv' "removed or replaced"
# Two runs on one log (other seeds: other bytes): the second replaces the
# first's, which then stops.
fresh
"$BIN" run --backend cpu --n 64 --quiet --t-end 4000 --energy-log e.csv --checkpoint c1.ck \
    --checkpoint-every 0.0625 > /dev/null 2> err.txt & p1=$!
sleep 0.5
"$BIN" run --backend cpu --n 64 --seed 2 --quiet --t-end 1 --energy-log e.csv > /dev/null 2>&1
t=0; while kill -0 $p1 2> /dev/null && [ $t -lt 200 ]; do sleep 0.05; t=$((t + 1)); done
kill -9 $p1 2> /dev/null; wait $p1; rc=$?
[ "$rc" = 1 ] && grep -q "removed or replaced" err.txt; record races two-runs-one-log "first stops, exit 1" "$rc" $?
timeout 30 "$BIN" run --restart c1.ck --quiet > out.txt 2> err.txt; rc=$?
refused 1 "e.csv: not the file" e.csv "$(SUM e.csv)" "$rc"
record races two-runs-restart-first "refused" "$rc" $?
# Someone appends to the log while it runs: the restart sees other bytes.
fresh
"$BIN" run --backend cpu --n 64 --quiet --t-end 3 --energy-log e.csv --checkpoint c.ck \
    --checkpoint-every 0.5 > /dev/null 2>&1 & p=$!
sleep 0.3; echo 'spliced,row' >> e.csv; wait $p
rc=$(R run --restart c.ck --t-end 4 --quiet)
{ [ "$rc" = 0 ] || { [ "$rc" = 1 ] && grep -q "e.csv: not the file" err.txt; }; } && no_tmp
record races append-during-run "accepted only if the bytes match" "$rc" $?

# ---- 7. symbolic-link tricks ----------------------------------------------------
fresh; ln -s /dev/full out.txt; rc=$(R run "${RUNF[@]}" "${T[@]}" --output out.txt)
[ "$rc" = 1 ] && grep -q "No space" err.txt && [ -L out.txt ]; record symlinks link-to-dev-full "exit 1, link kept" "$rc" $?
fresh; ln -s loop1 loop2; ln -s loop2 loop1; rc=$(R run "${RUNF[@]}" "${T[@]}" --output loop1)
[ "$rc" != 0 ] && one_line && [ -L loop1 ]; record symlinks loop "refused" "$rc" $?
fresh; mkdir dd; ln -s dd dl; rc=$(R run "${RUNF[@]}" "${T[@]}" --output dl)
[ "$rc" = 1 ] && grep -q "Is a directory" err.txt && [ -L dl ]; record symlinks link-to-directory "refused" "$rc" $?
fresh; ln -s nowhere/x.txt bad; rc=$(R run "${RUNF[@]}" "${T[@]}" --output bad)
[ "$rc" = 1 ] && one_line; record symlinks link-into-missing-dir "refused" "$rc" $?
fresh; echo old > t.txt; ln -s t.txt l.txt; rc=$(R run "${RUNF[@]}" "${T[@]}" --output l.txt)
[ "$rc" = 0 ] && [ -L l.txt ] && grep -q "glnbody run" t.txt; record symlinks link-followed "written through" "$rc" $?
fresh; leg1; mv e.csv real.csv; big other.csv; ln -s other.csv e.csv
rc=$(R run --restart c.ck --t-end 1 --quiet); refused 1 "e.csv: not the file" other.csv "$(SUM other.csv)" "$rc"
record symlinks log-link-switched "refused, target kept" "$rc" $?
fresh; rc=$("$BIN" run "${RUNF[@]}" "${T[@]}" --output /dev/stdout 2> err.txt | head -c 0; echo "${PIPESTATUS[0]}")
[ "$rc" = 0 ] || [ "$rc" = 141 ]; record symlinks dev-stdout-pipe "written through" "$rc" $?
fresh; rc=$("$BIN" run "${RUNF[@]}" "${T[@]}" --output /dev/stdout 2> err.txt > f.txt; echo $?)
[ "$rc" = 0 ] && grep -q "glnbody run" f.txt && no_tmp; record symlinks dev-stdout-file "written" "$rc" $?
fresh; mkfifo p; (cat p > got.txt &) ; rc=$(R run "${RUNF[@]}" "${T[@]}" --output p); sleep 0.2
[ "$rc" = 0 ] && [ -p p ] && grep -q "glnbody run" got.txt; record symlinks fifo "written through" "$rc" $?

# ---- summary ---------------------------------------------------------------------
echo "probe_files: $(($(wc -l < "$RES") - 1)) cases in $RES"
awk -F, 'NR > 1 { n[$1]++; if ($5 == "pass") p[$1]++ }
         END { for (c in n) printf "  %-18s %3d cases, %3d pass, %3d fail\n", c, n[c], p[c], n[c] - p[c] }' "$RES"
! grep -q ',FAIL$' "$RES"
