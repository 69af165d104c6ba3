# device_env.sh - sourced by the device scripts: unpacks the GL loaders
# carried in .gl/ (the device image has the NVIDIA driver but no libEGL or
# libepoxy) and points EGL at NVIDIA's vendor file.
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
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
