# device_env.sh - sourced by the device scripts: unpacks the GL loaders
# carried in .gl/ (the device image has the NVIDIA driver but no libEGL or
# libepoxy) and points EGL at NVIDIA's vendor file.  Fill .gl/ once, on a
# Debian 12 machine, in the project root:
#   mkdir -p .gl/extra .gl/lib /tmp/amd64/partial
#   o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   apt-get $o update; (cd .gl && apt-get $o download libvulkan1 libegl1 \
#       libglvnd0 libopengl0 libgl1 libglx0 libgles2 libepoxy0)
#   (cd .gl/extra && apt-get $o download libgomp1)
#   cp -L /lib/x86_64-linux-gnu/libsubunit.so.0 .gl/lib/   # for tests/check_gpu
# and carry .gl, glnbody, spirv (and tests/check_gpu) with each call.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! ldconfig -p | grep -q libgomp.so.1; then
    mkdir -p /tmp/gomp && dpkg -x .gl/extra/libgomp1_*.deb /tmp/gomp
    export LD_LIBRARY_PATH=/tmp/gomp/usr/lib/x86_64-linux-gnu
fi
if [ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
# libsubunit (Check's helper, for tests/check_gpu) travels in .gl/lib.
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/.gl/lib
export GLNBODY_SHADER_DIR=${GLNBODY_SHADER_DIR:-$PWD}
# The program links Open MPI (make NB_MPI=1, the default): its libraries come
# from Debian packages carried in .ompi/ (GPU-NOTES.md), unpacked into a
# prefix, never into /.  Without .ompi, build here with make NB_MPI=0.
if [ -d .ompi ]; then
    mkdir -p /tmp/ompi
    for f in .ompi/*.deb; do dpkg -x "$f" /tmp/ompi; done
    export OPAL_PREFIX=/tmp/ompi/usr PATH=/tmp/ompi/usr/bin:$PATH PMIX_MCA_pcompress=^zlib
    export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:/tmp/ompi/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
elif [ -x build/glnbody ] && ldd build/glnbody 2>/dev/null | grep -q 'libmpi.*not found'; then
    echo "device_env.sh: glnbody links Open MPI: carry .ompi (GPU-NOTES.md) or build it with make NB_MPI=0" >&2
fi
# The program also links GLFW, libpng, FreeType, fontconfig (pictures and
# view), jansson and cairo (reports), which the GPU image lacks: their
# Debian packages travel in .gl/view and .gl/report (tools/device_view.sh
# and tools/device_gles.sh say how to fill them) and are unpacked into a
# prefix, found after the image's own libraries.
for d in .gl/view .gl/report; do
    [ -d "$d" ] || continue
    mkdir -p /tmp/nblibs
    for f in "$d"/*.deb; do dpkg -x "$f" /tmp/nblibs; done
done
if [ -d /tmp/nblibs ]; then
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/tmp/nblibs/usr/lib/x86_64-linux-gnu:/tmp/nblibs/lib/x86_64-linux-gnu
fi
if [ -x build/glnbody ] && ldd build/glnbody 2>/dev/null | grep -q 'not found'; then
    echo "device_env.sh: glnbody lacks: $(ldd glnbody | grep 'not found' | awk '{print $1}' | tr '\n' ' ')" >&2
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
