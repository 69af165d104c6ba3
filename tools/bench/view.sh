#!/bin/bash
# usage: OUT=DIR bash tools/bench/view.sh   (on the GPU machine, from the project root)
# view.sh - the renderer's measurements on the GPU machine: the picture
# tests on the card, the renderer's own rate at N = 1,048,576 and
# 1920x1080 headless, the cost of frames in `run --predict gpu` at the same
# N, and the window (`glnbody view`) under an Xvfb brought along.
#
# Here, once (Debian 12, project root): the loaders of env.sh in
# .gl/, and the viewer's libraries and Xvfb in .gl/view (about 20 MB; the
# GPU image has no GLFW, FreeType, fontconfig, X11 client libraries or
# Xvfb):
#   mkdir -p .gl/view && (cd .gl/view && apt-get download libglfw3 libpng16-16 \
#       libfreetype6 libfontconfig1 fontconfig-config fonts-dejavu-core libx11-6 \
#       libx11-data libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 libbrotli1 libexpat1 \
#       xvfb xserver-common libxfont2 libfontenc1 libpixman-1-0 libunwind8 \
#       libgcrypt20 libgpg-error0 libaudit1 libcap-ng0 libsystemd0 liblz4-1 libzstd1 \
#       libxkbfile1 x11-xkb-utils xkb-data libgl1-mesa-dri libglapi-mesa libdrm2 \
#       libxshmfence1 libxext6 libxrandr2 libxrender1 libxinerama1 libxcursor1 \
#       libxi6 libxfixes3)
#   make glnbody spirv/.stamp tools/bench/render_bench tests/check_render
# Then from the project root:
#   OUT=DIR bash tools/bench/view.sh
#   (from a build of this tree: glnbody, spirv, tools/bench/render_bench,
#    tests/check_render; on a machine without libEGL, libepoxy, the Debian
#    packages in .gl/ that tools/bench/env.sh unpacks)
# The .gl/view packages are unpacked into a prefix (/tmp/viewroot), never
# into /, and found through LD_LIBRARY_PATH; only xkbcomp, whose path Xvfb
# has built in, is linked into /usr/bin where the image has none.
# Writes $OUT/render_rate.csv, $OUT/run_frames.csv, $OUT/view.txt, the logs,
# and a few of the pictures.
set -u
source tools/bench/env.sh
VR=/tmp/viewroot
mkdir -p "$VR" /tmp/fc-cache
for f in .gl/view/*.deb; do dpkg -x "$f" "$VR"; done
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$VR/usr/lib/x86_64-linux-gnu:$VR/lib/x86_64-linux-gnu
# fontconfig: the carried DejaVu fonts only.
cat > /tmp/fonts.conf <<EOF
<?xml version="1.0"?>
<fontconfig><dir>$VR/usr/share/fonts</dir><cachedir>/tmp/fc-cache</cachedir></fontconfig>
EOF
export FONTCONFIG_FILE=/tmp/fonts.conf
if ldd build/glnbody | grep -q "not found"; then
    echo "glnbody lacks libraries: $(ldd build/glnbody | grep 'not found' | tr -s ' \t' ' ')"
fi

# 1. The picture tests on the card (the window test needs xvfb-run: skipped here).
if [ -x build/tests/check_render ]; then
    build/tests/check_render > "$OUT/check_render.log" 2>&1
    echo "check_render: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_render.log")"
fi

# 2. Render-only rate: a Plummer sphere of 1,048,576 drawn from the compute
# engine's j-particle buffer at 1920x1080, 300 frames, alone and with each
# frame read back through the PBO ring; median of 3 runs.
csv="$OUT/render_rate.csv"
echo "n,width,height,frames,draw_fps,draw_readback_fps" > "$csv"
for k in 1 2 3; do
    timeout 300 build/tools/render_bench 1048576 1920 1080 300 2>> "$OUT/render_bench.log" | tail -n 1 >> "$csv"
done
cp render_bench.png "$OUT/render_1m_1920x1080.png" 2>/dev/null
cat "$csv"
sort -t, -k5 -g <(tail -n +2 "$csv") | sed -n 2p | awk -F, '{print "render-only median: " $5 " frames/s, with read-back " $6}'

# 3. run --predict gpu at N = 1,048,576 to t = 0.125: without frames, with
# frames every 0.0625 (the interval of the test: 3 frames at 640x480), and every
# 1/128 (17 frames, the cost made visible).  The run's wall time and time
# split, once each (each run takes about a minute on an H200).
runs="$OUT/run_frames.csv"
echo "label,frames,wall_s,t_force_s,output_s" > "$runs"
run_case() {   # label frame-args...
    local label=$1; shift
    local log="$OUT/run_$label.log"
    rm -rf "/tmp/frames_$label"
    if timeout 280 build/glnbody run --n 1048576 --t-end 0.125 --predict gpu --quiet "$@" > "$log" 2>&1; then
        local n=$(ls "/tmp/frames_$label" 2>/dev/null | wc -l)
        sed -n 's/.*t_force \([0-9.]*\) s.*output \([0-9.]*\) s; wall \([0-9.]*\) s/\3,\1,\2/p' "$log" |
            sed "s/^/$label,$n,/" >> "$runs"
    else
        echo "# $label failed: $(tail -n 2 "$log")" >> "$runs"
    fi
}
run_case none
run_case every_0.0625 --frames /tmp/frames_every_0.0625 --frame-every 0.0625
run_case every_1_128 --frames /tmp/frames_every_1_128 --frame-every 0.0078125
cp /tmp/frames_every_0.0625/frame_00002.png "$OUT/run_1m_t0.125.png" 2>/dev/null
cat "$runs"

# 4. The window under Xvfb.  view asks GLFW for an EGL context; NVIDIA's EGL
# reaches an X server through its X11 platform, which may refuse a server
# without its driver (Xvfb): then view's own message says so, and that is
# the result.
view="$OUT/view.txt"
if [ ! -e /usr/bin/xkbcomp ]; then ln -s "$VR/usr/bin/xkbcomp" /usr/bin/xkbcomp; fi
"$VR/usr/bin/Xvfb" :77 -screen 0 1920x1080x24 -nolisten tcp \
    -xkbdir "$VR/usr/share/X11/xkb" > "$OUT/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
{
    echo "Xvfb: $(kill -0 $xvfb 2>/dev/null && echo running || echo "did not start: $(tail -n 3 "$OUT/xvfb.log")")"
    for n in 4096 1048576; do
        for vendor in nvidia mesa; do
            echo "== view --n $n --predict gpu, __GLX_VENDOR_LIBRARY_NAME=$vendor"
            DISPLAY=:77 __GLX_VENDOR_LIBRARY_NAME=$vendor timeout 240 build/glnbody view --n $n \
                --predict gpu --size 1920x1080 --screenshot "$OUT/view_${n}_$vendor.png" \
                --screenshot-after 200 2>&1 | tail -n 3
            echo "exit ${PIPESTATUS[0]}"
        done
    done
} > "$view" 2>&1
kill $xvfb 2>/dev/null
cat "$view"
