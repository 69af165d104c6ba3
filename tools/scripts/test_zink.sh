#!/bin/sh
# test_zink.sh GLNBODY TEST... - runs the GL suites on Mesa's zink (OpenGL
# on Vulkan) over lavapipe, Mesa's Vulkan driver on the CPU (Debian's
# mesa-vulkan-drivers), through tools/scripts/run_tests.sh.  Zink compiles
# the shaders through its own GLSL -> SPIR-V -> Vulkan path, so it catches
# shader mistakes llvmpipe forgives.  Where no Vulkan driver answers, Mesa
# falls back to llvmpipe with only a warning: the renderer is checked first,
# and the run fails rather than pass the suites on the wrong driver.
# Make target: make test-zink.
set -u
glnbody=$1
shift
export GALLIUM_DRIVER=zink LIBGL_ALWAYS_SOFTWARE=1
# zink asks for a runtime directory; a private one where none is set.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d) || exit 1
    export XDG_RUNTIME_DIR
    trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi
line=$("$glnbody" compare --n 16 2>&1 >/dev/null | grep '^glnbody: renderer')
case "$line" in
    *"renderer zink"*) echo "test_zink.sh: ${line#glnbody: }" ;;
    *)  echo "test_zink.sh: GALLIUM_DRIVER=zink gave no zink context (${line:-no renderer line});" \
             "zink needs a Vulkan driver: Debian's mesa-vulkan-drivers (lavapipe)" >&2
        exit 1 ;;
esac
"$(dirname "$0")/run_tests.sh" "$@"
