#!/bin/sh
# test_install.sh - the installed library, as a user gets it (run by
# `make test` after the suites, from the project root, after a build):
#   1. make install into a fresh temporary prefix (and once more under a
#      DESTDIR), the exported names of the installed .so
#      (tools/scripts/check_exports.sh) and its manual page (groff -ww);
#   2. tools/examples/*.c built through pkg-config only (and forces.c also
#      statically, pkg-config --static, finding the shaders as bin/glnbody
#      does), run with only LD_LIBRARY_PATH set:
#      no GLNBODY_* variable, so the shaders must be found from the library;
#      on the CPU engine always, on the compute engine where GL gives a
#      context (else reported skipped, as the suites do);
#   3. the installed bin/glnbody on a tiny run, its message when the
#      shader directory is empty, and its help read from the installed
#      manual page;
#   4. make uninstall, after which the prefix must be empty again.
# Prints one line a check and a tally; exits 1 when one failed.
set -u
unset GLNBODY_SHADER_DIR GLNBODY_SHADERS GLNBODY_DEBUG
make=${MAKE:-make}
cc=${CC:-cc}
prefix=$(mktemp -d) && work=$(mktemp -d) || exit 1
trap 'rm -rf "$prefix" "$work"' EXIT
prefix=$(cd "$prefix" && pwd -P)
passed=0 failed=0 skipped=0

ok()   { echo "install: ok      $1"; passed=$((passed + 1)); }
bad()  { echo "install: FAILED  $1"; failed=$((failed + 1)); }
skip() { echo "install: skipped $1"; skipped=$((skipped + 1)); }
# show FILE: its lines, indented, for a failure or a record of the run.
show() { sed 's/^/    /' "$1"; }
# number NAME FILE: the number after "NAME: " on the line that has it.
number() { sed -n "s/^$1: *\([-+0-9.eE]*\).*/\1/p" "$2" | tail -n 1; }
# below X BOUND: whether the number X is below BOUND.
below() { [ -n "$1" ] && awk -v x="$1" -v b="$2" 'BEGIN { exit !(x < b && x > -b) }'; }

# ---- 1. install ------------------------------------------------------------
if $make -s install PREFIX="$prefix" > "$work/log" 2>&1; then
    ok "make install PREFIX=$prefix ($(find "$prefix" -type f | wc -l) files)"
else
    bad "make install PREFIX=$prefix"; show "$work/log"
    echo "install: $passed passed, $failed failed, $skipped skipped"; exit 1
fi
if tools/scripts/check_exports.sh "$prefix/lib/libglnbody.so" "$prefix/include/glnbody.h" > "$work/log" 2>&1
then ok "$(cat "$work/log")"
else bad "exports of the installed libglnbody.so:"; show "$work/log"
fi
# The manual page renders without a warning (where groff is there).
if command -v groff > /dev/null 2>&1; then
    if groff -man -ww -z "$prefix/share/man/man1/glnbody.1" > "$work/log" 2>&1 &&
       [ ! -s "$work/log" ]
    then ok "groff -man -ww: share/man/man1/glnbody.1 renders without warnings"
    else bad "groff -man -ww share/man/man1/glnbody.1:"; show "$work/log"
    fi
fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
version=$(sed -n 's/^#define NB_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' host/glnbody.h |
          paste -sd.)
if [ "$(pkg-config --modversion glnbody 2>&1)" = "$version" ]; then
    ok "pkg-config --modversion glnbody: $version"
else bad "pkg-config --modversion glnbody: $(pkg-config --modversion glnbody 2>&1), want $version"
fi

# ---- 2. the examples, through pkg-config only ------------------------------
# build NAME [--static]: tools/examples/NAME.c into $work/NAME, or with
# --static against libglnbody.a into $work/bin/NAME-static, where
# $work/share/glnbody links to the prefix's: the program finds its shaders
# as an installed program linked statically does (bin/../share/glnbody).
build() {
    if [ "${2:-}" = --static ]; then
        out=$work/bin/$1-static
        flags="$(pkg-config --cflags --libs-only-L glnbody) -Wl,-Bstatic -lglnbody -Wl,-Bdynamic
               $(pkg-config --static --libs glnbody | sed 's/-lglnbody//')"
    else
        out=$work/$1
        flags=$(pkg-config --cflags --libs glnbody)
    fi
    # shellcheck disable=SC2086
    if $cc -std=c11 -O2 -Wall -Wextra -Werror -o "$out" "tools/examples/$1.c" $flags -lm \
        > "$work/log" 2>&1
    then ok "built $1${2:+ ($2)}: cc $1.c \$(pkg-config ${2:+--static }--cflags --libs glnbody)"
    else bad "building $1${2:+ ($2)}:"; show "$work/log"
    fi
}
mkdir -p "$work/bin" "$work/share"
ln -s "$prefix/share/glnbody" "$work/share/glnbody"
for ex in plummer forces lj; do build "$ex"; done
build forces --static
ln -s bin/forces-static "$work/forces-static"

# Whether GL gives a context here (tests/gl_probe.h's question), asked of
# the installed library by a probe built like the examples.
cat > "$work/probe.c" <<'PROBE'
#include <stdio.h>
#include <glnbody.h>
int main(void)
{
    struct nb_gl_options opt;
    struct nb_gl *gl = NULL;
    struct nb_error err = { 0 };
    nb_gl_options_default(&opt);
    if (nb_gl_create(&gl, &opt, &err) != NB_OK) {
        printf("%s\n", err.message);
        return err.status == NB_ERR_GL ? 77 : 1;
    }
    nb_gl_destroy(gl);
    return 0;
}
PROBE
# shellcheck disable=SC2046
$cc -std=c11 -o "$work/probe" "$work/probe.c" $(pkg-config --cflags --libs glnbody) 2> "$work/log"
LD_LIBRARY_PATH="$prefix/lib" "$work/probe" > "$work/probe.log" 2>&1
case $? in
    0)  engines="cpu compute" ;;
    77) engines=cpu; nogl=$(cat "$work/probe.log") ;;
    *)  engines=cpu; bad "GL probe against the installed library:"; show "$work/log"
        show "$work/probe.log" ;;
esac

# run NAME ENGINE: runs an example with only LD_LIBRARY_PATH set; its output
# is in $work/NAME-ENGINE.out.  Returns its exit status.
run() {
    (cd "$work" && LD_LIBRARY_PATH="$prefix/lib" "./$1" "$2") > "$work/$1-$2.out" 2>&1
}
for engine in cpu compute; do
    case " $engines " in
        *" $engine "*) ;;
        *) skip "examples on the $engine engine: no GL context ($nogl)"; continue ;;
    esac
    for ex in plummer forces lj forces-static; do
        [ -x "$work/$ex" ] || { bad "$ex ($engine): not built"; continue; }
        out=$work/$ex-$engine.out
        if ! run "$ex" "$engine"; then bad "$ex $engine exits non-zero:"; show "$out"; continue; fi
        case $ex in
        plummer)
            e=$(number "largest relative energy error" "$out")
            if below "$e" 1e-4; then ok "$ex $engine: relative energy error to t = 1: $e"
            else bad "$ex $engine: relative energy error '$e' (want < 1e-4):"; show "$out"
            fi ;;
        forces*)
            e=$(sed -n 's/.*acceleration \([-+0-9.e]*\),.*/\1/p' "$out")
            want=$([ "$engine" = cpu ] && echo 1e-12 || echo 1e-5)
            if ! below "$e" "$want"; then
                bad "$ex $engine: error '$e' against the direct sum (want < $want):"; show "$out"
            elif [ "$engine" != cpu ] &&
                 ! grep -qx "shaders from $prefix/share/glnbody" "$out"; then
                bad "$ex $engine: shaders not from the installed copy:"; show "$out"
            else
                ok "$ex $engine: acceleration error $e against the direct sum$(
                    [ "$engine" != cpu ] && echo ", shaders from the prefix")"
            fi ;;
        lj)
            e=$(number "largest total energy change per atom" "$out")
            rows=$(grep -c '^ *[0-9][0-9]* ' "$out")
            if below "$e" 1e-2 && [ "$rows" -eq 11 ]; then
                ok "lj $engine: 11 thermo rows, energy drift per atom $e"
            else bad "lj $engine: drift '$e', $rows rows:"; show "$out"
            fi ;;
        esac
    done
done

# libg6gl: a GRAPE code (tests/g6_driver.c, the g6 API only) built through
# pkg-config g6gl alone, its exported names the g6 calls, and (with GL) a
# short run on 32 bodies against the installed library.
exports=$(nm -D --defined-only "$prefix/lib/libg6gl.so" 2>/dev/null | awk '{print $3}' |
          grep -v '^g6' | tr '\n' ' ')
if [ -z "$exports" ] && nm -D --defined-only "$prefix/lib/libg6gl.so" | grep -q ' g6calc_lasthalf2_$'
then ok "libg6gl.so exports only g6 names ($(nm -D --defined-only "$prefix/lib/libg6gl.so" |
         grep -c ' g6') of them)"
else bad "libg6gl.so exports: $exports"
fi
# shellcheck disable=SC2046
if $cc -std=c11 -O2 -Wall -Wextra -Werror -o "$work/g6_driver" tests/g6_driver.c \
       $(pkg-config --cflags --libs g6gl) -lm > "$work/log" 2>&1
then ok "built a GRAPE-6 code: cc g6_driver.c \$(pkg-config --cflags --libs g6gl)"
else bad "building tests/g6_driver.c against g6gl:"; show "$work/log"
fi
case " $engines " in
*" compute "*)
    awk 'BEGIN { srand(5); n = 32; print n; for (i = 0; i < n; i++)
                 print 1 / n, rand() - .5, rand() - .5, rand() - .5, 0, 0, 0 }' > "$work/g6.in"
    if (cd "$work" && LD_LIBRARY_PATH="$prefix/lib" ./g6_driver g6.in g6.out 0.125 0.02 0.05 \
            0.125) > "$work/log" 2>&1 && [ "$(wc -l < "$work/g6.out")" -eq 32 ]
    then ok "g6_driver on the installed libg6gl: $(cat "$work/log")"
    else bad "g6_driver on the installed libg6gl:"; show "$work/log"
    fi ;;
*) skip "g6_driver on the installed libg6gl: no GL context ($nogl)" ;;
esac

# ---- 3. the installed program --------------------------------------------
backend=$(case " $engines " in *" compute "*) echo compute ;; *) echo cpu ;; esac)
if (cd "$work" && "$prefix/bin/glnbody" run --n 64 --t-end 0.25 --backend "$backend") \
    > "$work/run.out" 2>&1 && grep -q "relative energy error" "$work/run.out"
then ok "$prefix/bin/glnbody run --n 64 --t-end 0.25 --backend $backend"
else bad "$prefix/bin/glnbody run --backend $backend:"; show "$work/run.out"
fi

# Shaders that are not there: one message naming the directory.
if [ "$backend" = compute ]; then
    (cd "$work" && GLNBODY_SHADER_DIR="$work/none" "$prefix/bin/glnbody" run --n 64 \
        --t-end 0.25) > "$work/run.out" 2>&1
    if [ $? -eq 1 ] && grep -q "no shaders in $work/none" "$work/run.out"; then
        ok "GLNBODY_SHADER_DIR=$work/none: $(cut -c1-60 "$work/run.out")..."
    else bad "GLNBODY_SHADER_DIR=$work/none:"; show "$work/run.out"
    fi
fi

# glnbody help reads the installed manual page (share/man/man1), not the
# build tree's: a line marked in the installed copy shows in its output.
page=$prefix/share/man/man1/glnbody.1
sed 's/^\.SS "glnbody run"$/&\nfrom the installed page/' "$page" > "$work/page" &&
    cat "$work/page" > "$page"
if (cd "$work" && "$prefix/bin/glnbody" help run) > "$work/help.out" 2>&1 &&
   grep -q 'from the installed page' "$work/help.out"
then ok "$prefix/bin/glnbody help run reads share/man/man1/glnbody.1"
else bad "$prefix/bin/glnbody help run:"; show "$work/help.out"
fi

# ---- 4. uninstall, and the same under DESTDIR -----------------------------
if $make -s uninstall PREFIX="$prefix" > "$work/log" 2>&1 &&
   [ -z "$(find "$prefix" -mindepth 1)" ]
then ok "make uninstall PREFIX=$prefix leaves it empty"
else bad "make uninstall PREFIX=$prefix left:"; find "$prefix" -mindepth 1 | sed 's/^/    /'
     show "$work/log"
fi
stage=$work/stage
mkdir "$stage"
if $make -s install DESTDIR="$stage" PREFIX=/usr > "$work/log" 2>&1 &&
   grep -qx 'prefix=/usr' "$stage/usr/lib/pkgconfig/glnbody.pc" &&
   [ -f "$stage/usr/share/glnbody/glsl/nb_config.h" ] &&
   $make -s uninstall DESTDIR="$stage" PREFIX=/usr >> "$work/log" 2>&1 &&
   [ -z "$(find "$stage" -mindepth 1)" ]
then ok "make install/uninstall DESTDIR=$stage PREFIX=/usr"
else bad "DESTDIR=$stage PREFIX=/usr:"; show "$work/log"; find "$stage" -mindepth 1 | head | sed 's/^/    /'
fi

echo "install: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
