"""Finding and loading libglnbody (cffi, ABI mode: nothing is compiled).

The library is looked for, first found wins:
  1. $GLNBODY_LIBRARY, a path to libglnbody.so (nothing else is tried);
  2. beside the package: a libglnbody.so.MAJOR in the package's directory,
     in PREFIX/lib when the package lies in PREFIX/lib/python3/..., or the
     build tree the package was installed from (recorded at install time);
  3. pkg-config: the libdir of glnbody.pc;
  4. the dynamic loader's own search (ldconfig, LD_LIBRARY_PATH).
"""
import os
import subprocess

from cffi import FFI

from ._cdef import CDEF

MAJOR = 0
SONAME = "libglnbody.so.%d" % MAJOR

ffi = FFI()
ffi.cdef(CDEF)
ffi.cdef("void free(void *ptr);")


def _beside_package():
    here = os.path.dirname(os.path.abspath(__file__))
    places = [here]
    # PREFIX/lib/python3/dist-packages/glnbody,
    # PREFIX/lib/python3.X/site-packages/glnbody (a venv's too) or Debian's
    # PREFIX/local/lib/python3.X/dist-packages/glnbody: PREFIX/lib.
    up = here
    for _ in range(4):
        up = os.path.dirname(up)
        if os.path.basename(up) in ("lib", "lib64"):
            places.append(up)
            top = os.path.dirname(up)
            if os.path.basename(top) == "local":
                places.append(os.path.join(os.path.dirname(top), "lib"))
            break
    try:
        from . import _built
        places.append(_built.LIBRARY_DIR)
    except ImportError:
        pass
    # Imported from the source tree (tools/python/glnbody): the build tree.
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    places += [os.path.join(root, "build"), root]
    return [os.path.join(p, SONAME) for p in places]


def _pkg_config():
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "glnbody"],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return []
    libdir = out.stdout.strip()
    return [os.path.join(libdir, SONAME)] if out.returncode == 0 and libdir else []


def candidates():
    """The paths tried, in order (the last is the bare soname)."""
    forced = os.environ.get("GLNBODY_LIBRARY")
    if forced:
        return [forced]
    found = [p for p in _beside_package() if os.path.exists(p)]
    found += [p for p in _pkg_config() if os.path.exists(p)]
    return found + [SONAME]


def _load():
    tried = []
    for path in candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("glnbody: libglnbody not found; tried " + "; ".join(tried) +
                      ". Build it (make), install it (make install), or set "
                      "GLNBODY_LIBRARY to the path of libglnbody.so")


lib, path = _load()
libc = ffi.dlopen(None)
