#!/bin/sh
# install.sh install|uninstall - installs glnbody under $DESTDIR$PREFIX, or
# removes exactly what install put there.  Run by `make install` and
# `make uninstall` from the project root after a build, with PREFIX,
# DESTDIR, VERSION, B (the build directory), SOFILE (libglnbody.so.X.Y.Z)
# and SONAME (libglnbody.so.X) in the environment.  The one list of installed files is install_all below:
# uninstall runs the same list with remove() in place of put().
#
#   PREFIX/include/glnbody.h and its parts, PREFIX/include/glnbody/*.h
#   PREFIX/lib/libglnbody.so.X.Y.Z, libglnbody.so.X, libglnbody.so, libglnbody.a
#   PREFIX/lib/pkgconfig/glnbody.pc
#   PREFIX/include/g6gl.h, PREFIX/lib/libg6gl.so.X.Y.Z, libg6gl.so.X, libg6gl.so,
#   libg6gl.a, PREFIX/lib/pkgconfig/g6gl.pc (the GRAPE-6 interface, tools/g6/)
#   PREFIX/bin/glnbody
#   PREFIX/share/glnbody/glsl/*, PREFIX/share/glnbody/spirv/*.spv
#   PREFIX/share/man/man1/glnbody.1
set -u
action=${1:-}
: "${PREFIX:?}" "${VERSION:?}" "${SOFILE:?}" "${SONAME:?}" "${G6_SOFILE:?}" "${G6_SONAME:?}"
DESTDIR=${DESTDIR:-}
B=${B:-build}
root=$DESTDIR$PREFIX

fail() { echo "make $action: $*" >&2; exit 1; }

case $PREFIX in
    /*) ;;
    *) fail "PREFIX=$PREFIX is not an absolute path" ;;
esac

# put MODE SOURCE DIR [NAME]: copies SOURCE to $root/DIR/NAME.
# A failing mkdir or install gives one message: ours, with its reason.
put() {
    msg=$(mkdir -p "$root/$3" 2>&1) || fail "cannot create $root/$3: ${msg##*: }"
    msg=$(install -m "$1" "$2" "$root/$3/${4:-${2##*/}}" 2>&1) ||
        fail "cannot write $root/$3/${4:-${2##*/}}: ${msg##*: }"
}
# link TARGET DIR NAME: the symbolic link $root/DIR/NAME -> TARGET.
link() { ln -sfn "$1" "$root/$2/$3" || fail "cannot link $root/$2/$3"; }

# remove MODE SOURCE DIR [NAME] / unlink TARGET DIR NAME: the inverses.
remove() { unlink_ "" "$3" "${4:-${2##*/}}"; }
unlink_() { msg=$(rm -f "$root/$2/$3" 2>&1) || fail "cannot remove $root/$2/$3: ${msg##*: }"; }

# The installed files, as "put"/"link" calls (or their inverses).
install_all() {
    $put 644 host/glnbody.h include
    for f in host/glnbody/*.h; do $put 644 "$f" include/glnbody; done
    $put 755 "$B/$SOFILE" lib
    $link "$SOFILE" lib "$SONAME"
    $link "$SONAME" lib libglnbody.so
    $put 644 "$B/libglnbody.a" lib
    $put 644 "$B/glnbody.pc" lib/pkgconfig
    $put 755 "$B/glnbody" bin
    for f in glsl/*; do $put 644 "$f" share/glnbody/glsl; done
    # (no SPIR-V where the build had no glslangValidator: GLSL is used)
    for f in spirv/*.spv; do [ -e "$f" ] || continue; $put 644 "$f" share/glnbody/spirv; done
    $put 644 tools/glnbody/glnbody.1 share/man/man1
    $put 644 tools/g6/g6gl.h include
    $put 755 "$B/$G6_SOFILE" lib
    $link "$G6_SOFILE" lib "$G6_SONAME"
    $link "$G6_SONAME" lib libg6gl.so
    $put 644 "$B/libg6gl.a" lib
    $put 644 "$B/g6gl.pc" lib/pkgconfig
}

# The directories install may have created, deepest first: uninstall
# removes those left empty (and $root itself only under a DESTDIR).
DIRS="share/glnbody/glsl share/glnbody/spirv share/glnbody share/man/man1 share/man share
      lib/pkgconfig lib include/glnbody include bin"

case $action in
install)
    for f in host/glnbody.h "$B/$SOFILE" "$B/libglnbody.a" "$B/glnbody" tools/glnbody/glnbody.1 \
             "$B/$G6_SOFILE" "$B/libg6gl.a"; do
        [ -e "$f" ] || fail "$f is missing: run make first"
    done
    # The nearest existing directory on the way to $root must be writable.
    d=$root
    while [ ! -e "$d" ]; do d=$(dirname "$d"); done
    [ -d "$d" ] && [ -w "$d" ] ||
        fail "cannot write to $d (to install under $root); choose PREFIX=DIR (or DESTDIR=DIR) where you may write, or run as root"
    mkdir -p "$B" && sed -e "s|@PREFIX@|$PREFIX|" -e "s|@VERSION@|$VERSION|" \
        tools/scripts/glnbody.pc.in > "$B/glnbody.pc" || fail "cannot write $B/glnbody.pc"
    sed -e "s|@PREFIX@|$PREFIX|" -e "s|@VERSION@|$VERSION|" \
        tools/g6/g6gl.pc.in > "$B/g6gl.pc" || fail "cannot write $B/g6gl.pc"
    put=put link=link install_all
    echo "glnbody $VERSION installed under $root"
    ;;
uninstall)
    [ -d "$root" ] || fail "$root: no such directory"
    put=remove link=unlink_ install_all
    for d in $DIRS; do
        [ -d "$root/$d" ] && rmdir "$root/$d" 2>/dev/null
    done
    # Under a DESTDIR, the empty directories of PREFIX itself too (a staging
    # tree is left as it was); never DESTDIR, nor a PREFIX without DESTDIR.
    d=$PREFIX
    while [ -n "$DESTDIR" ] && [ "$d" != / ] && rmdir "$DESTDIR$d" 2>/dev/null; do
        d=$(dirname "$d")
    done
    echo "glnbody $VERSION removed from $root"
    ;;
*)
    echo "usage: install.sh install|uninstall (run by make install / make uninstall)" >&2
    exit 2
    ;;
esac
exit 0
