# env.sh - sourced by the device scripts: unpacks the GL loaders
# carried in .gl/ (the device image has the NVIDIA driver but no libEGL or
# libepoxy) and points EGL at NVIDIA's vendor file.  Fill .gl/ once, on a
# Debian 12 machine, in the project root:
#   mkdir -p .gl/extra .gl/lib /tmp/amd64/partial
#   o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   apt-get $o update; (cd .gl && apt-get $o download libvulkan1 libegl1 \
#       libglvnd0 libopengl0 libgl1 libglx0 libgles2 libepoxy0)
#   (cd .gl/extra && apt-get $o download libgomp1)
#   cp -L /lib/x86_64-linux-gnu/libsubunit.so.0 .gl/lib/   # for tests/check_gpu
# and copy .gl/ with the tree (glnbody, spirv/, the suites) to the GPU machine.
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
# The program links Open MPI (make NB_MPI=1, the default): on a machine
# without it, its libraries come from Debian packages in .ompi/, unpacked
# into a prefix, never into /.  Fill .ompi/ once on a Debian 12 machine:
#   mkdir -p .ompi && (cd .ompi && apt-get download openmpi-bin openmpi-common \
#       libopenmpi3 libpmix2 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
#       libevent-2.1-7 libhwloc15 libhwloc-plugins libfabric1 libucx0 \
#       libibverbs1 ibverbs-providers librdmacm1 libnl-3-200 libnl-route-3-200 \
#       libpsm-infinipath1 libpsm2-2 libmunge2 libltdl7 ocl-icd-libopencl1 \
#       libxnvctrl0 libnuma1)
# Without .ompi, build with make NB_MPI=0.
if [ -d .ompi ]; then
    mkdir -p /tmp/ompi
    for f in .ompi/*.deb; do dpkg -x "$f" /tmp/ompi; done
    export OPAL_PREFIX=/tmp/ompi/usr PATH=/tmp/ompi/usr/bin:$PATH PMIX_MCA_pcompress=^zlib
    export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:/tmp/ompi/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
elif [ -x build/glnbody ] && ldd build/glnbody 2>/dev/null | grep -q 'libmpi.*not found'; then
    echo "env.sh: glnbody links Open MPI: fill .ompi/ (see tools/bench/env.sh) or build it with make NB_MPI=0" >&2
fi
# The program also links GLFW, libpng, FreeType, fontconfig (pictures and
# view), jansson and cairo (reports), which the GPU image lacks: their
# Debian packages travel in .gl/view and .gl/report (tools/bench/view.sh
# and tools/bench/gles.sh say how to fill them) and are unpacked into a
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
    echo "env.sh: glnbody lacks: $(ldd build/glnbody | grep 'not found' | awk '{print $1}' | tr '\n' ' ')" >&2
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
