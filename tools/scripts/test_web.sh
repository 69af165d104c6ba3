#!/bin/sh
# test_web.sh WEB_DIR GLNBODY - the browser page (make web) in headless
# Chromium on SwiftShader (WebGL 2 on the CPU), served from 127.0.0.1:
#   1. the page's checks (?test=1): every fragment variant against the
#      double CPU reference within the fragment path's bounds, a Hermite
#      run of N = 1024 to t = 1/16 within |dE/E| <= 1e-5, the texture
#      inspector, and a benchmark report;
#   2. the report read by `GLNBODY report` beside a native report;
#   3. a screenshot of the live run that is not blank (its PNG decoded).
# Run by `make test-web` (and so by `make test`); WEB_REPORT=FILE keeps
# the browser's report.  Exit 77 (skipped) where
# Chromium or the page is missing, 0 when all pass, 1 otherwise.
set -u
build=${1:-build/web}
glnbody=${2:-build/glnbody}
here=$(cd "$(dirname "$0")/../.." && pwd)
native_report=$(find "$here/tools/results" -name llvmpipe-es32.json 2>/dev/null | sort -r | head -n 1)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || [ ! -f "$build/index.html" ]; then
    echo "test_web: skipped: ${browser:+no page in $build (make web)}${browser:-no chromium (tools/deps.sh installs it)}"
    exit 77
fi
wasm_bytes=$(wc -c < "$build/glnbody.wasm")
[ "$wasm_bytes" -le 2097152 ] || { echo "test_web: FAIL: glnbody.wasm is $wasm_bytes bytes, over 2 MB"; exit 1; }
echo "test_web: glnbody.wasm $wasm_bytes bytes, glsl/ packed in $(wc -c < "$build/glnbody.data") bytes"
tmp=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    [ -n "${chrome:-}" ] && kill -- "-$chrome" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() { echo "test_web: FAIL: $*"; exit 1; }
t_start=$(date +%s)

# The server on a free port that it chooses itself (port 0), read from
# its first line.
(cd "$build" && exec /usr/bin/python3 -u -m http.server 0 --bind 127.0.0.1) \
    > "$tmp/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 50); do
    port=$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$tmp/server.log")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || fail "the HTTP server did not start: $(cat "$tmp/server.log")"
url="http://127.0.0.1:$port/index.html"
flags="--headless=new --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader
       --no-first-run --no-default-browser-check --disable-extensions --mute-audio"

# 1. The checks, on the real clock (no virtual time): the browser is
# stopped once the page says it is done.
setsid "$browser" $flags --user-data-dir="$tmp/profile1" --enable-logging=stderr --v=0 \
    "$url?test=1&bench=256,1024" > /dev/null 2> "$tmp/console.log" &
chrome=$!
for _ in $(seq 1 1500); do
    grep -q 'glnbody-web: done\|glnbody-web: error' "$tmp/console.log" && break
    sleep 0.1
done
kill -- "-$chrome" 2>/dev/null
wait "$chrome" 2>/dev/null
chrome=""
log="$tmp/console.log"
line() { sed -n "s/.*\"glnbody-web: $1 \(.*\)\", source: .*/\1/p" "$log" | head -n 1; }
grep -q 'glnbody-web: error' "$log" &&
    fail "the page reported: $(sed -n 's/.*glnbody-web: error: \(.*\)", source.*/\1/p' "$log" | head -n 3)"
grep -q 'glnbody-web: done' "$log" || fail "the page did not finish in 150 s; its console:
$(grep 'CONSOLE' "$log" | tail -n 5)"
echo "test_web: $(line renderer)"
echo "test_web: page loaded in $(line 'loaded in') (from navigation to the runtime)"
forces=$(line forces)
echo "test_web: forces $forces"
case "$forces" in ok*) ;; *) fail "fragment forces against the CPU reference: $forces
$(grep 'forces case FAIL' "$log")" ;; esac
hermite=$(line hermite)
echo "test_web: hermite $hermite"
case "$hermite" in ok*) ;; *) fail "Hermite energy: $hermite" ;; esac
inspect=$(line inspect)
[ -n "$inspect" ] || fail "the texture inspector described nothing"
echo "test_web: inspector: $inspect"

# 2. The report, as `glnbody report` reads it beside a native one.
line report > "$tmp/web.json"
[ -s "$tmp/web.json" ] || fail "no report on the console"
"$glnbody" report "$tmp/web.json" ${native_report:+"$native_report"} > "$tmp/report.txt" 2>&1 ||
    fail "glnbody report refused the browser's report: $(cat "$tmp/report.txt")"
grep -q 'WebGL 2' "$tmp/report.txt" || fail "the browser's machine is not in the table:
$(cat "$tmp/report.txt")"
grep -q '^ *GA ' "$tmp/report.txt" || grep -q 'GA' "$tmp/report.txt" ||
    fail "no GA rows in the table: $(cat "$tmp/report.txt")"
sed 's/^/test_web: report: /' "$tmp/report.txt"
# $WEB_REPORT (optional): where to keep the browser's report.
[ -n "${WEB_REPORT:-}" ] && cp "$tmp/web.json" "$WEB_REPORT"

# 3. A picture of the live run: the canvas alone, after a few frames of
# virtual time; decoded here, it must show particles, not one colour.
"$browser" $flags --user-data-dir="$tmp/profile2" --window-size=800,600 \
    --screenshot="$tmp/shot.png" --virtual-time-budget=5000 "$url?shot=1&n=1024" \
    > /dev/null 2>&1 || fail "chromium could not take the screenshot"
[ -s "$tmp/shot.png" ] || fail "no screenshot"
/usr/bin/python3 - "$tmp/shot.png" <<'EOF' || fail "the screenshot is blank"
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(data):
    size, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + size]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), 'unexpected PNG format'
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + size
raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
counts = {}
for line in rows:
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        counts[px] = counts.get(px, 0) + 1
background, most = max(counts.items(), key=lambda kv: kv[1])
lit = w * h - most
bright = sum(n for px, n in counts.items() if max(px) >= 96)
print('test_web: screenshot %dx%d: %d pixels differ from the background %s, %d bright, '
      '%d colours' % (w, h, lit, background.hex(), bright, len(counts)))
sys.exit(0 if lit >= 500 and bright >= 50 and len(counts) >= 16 else 1)
EOF
echo "test_web: passed in $(( $(date +%s) - t_start )) s"
