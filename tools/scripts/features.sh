#!/bin/sh
# features.sh - the optional features of this build, on or off, and for
# each one off what would turn it on.  Run by make at the end of the build
# with NB_MPI, NB_VIEW, NB_REPORTS, NB_PLOTS, NB_SPIRV, NB_FORTRAN (1 or 0)
# and GLSLANG in the environment.
set -u

# line NAME SETTING WHAT HOW: one line of the table.
line() {
    if [ "$2" = 1 ]; then
        printf '  %-9s on   %s\n' "$1" "$3"
    else
        printf '  %-9s off  %s: %s\n' "$1" "$3" "$4"
    fi
}

echo "glnbody: the library and the program are built; optional features:"
line mpi "${NB_MPI:-0}" "mpirun -np P glnbody run|forces" \
    "needs pkg-config ompi-c (Debian: libopenmpi-dev openmpi-bin)"
line view "${NB_VIEW:-0}" "glnbody view, the window" \
    "needs pkg-config glfw3 freetype2 fontconfig (Debian: libglfw3-dev libfreetype-dev libfontconfig-dev)"
line reports "${NB_REPORTS:-0}" "glnbody bench --report, glnbody report" \
    "needs pkg-config jansson (Debian: libjansson-dev)"
line plots "${NB_PLOTS:-0}" "glnbody report --plot" \
    "needs pkg-config jansson and cairo (Debian: libjansson-dev libcairo2-dev)"
line spirv "${NB_SPIRV:-0}" "SPIR-V shaders in spirv/ (GLSL is used without them)" \
    "needs ${GLSLANG:-glslangValidator} (Debian: glslang-tools)"
line fortran "${NB_FORTRAN:-0}" "the Fortran GRAPE-6 driver of check_g6" \
    "needs gfortran (Debian: gfortran)"
echo "  (make run and make test install every package; make NB_VIEW=0 and the like turn a feature off)"
