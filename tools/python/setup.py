"""pip install ./tools/python (offline: Debian's python3-numpy and
python3-cffi are the only dependencies; nothing is compiled).

Installed from a build tree, the package records where that tree's
libglnbody is (glnbody/_built.py), so that it finds the library after it
is copied elsewhere; GLNBODY_LIBRARY and pkg-config still come first."""
import os
import re

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def version():
    with open(os.path.join(ROOT, "host", "glnbody.h")) as fp:
        text = fp.read()
    parts = [re.search(r"#define NB_VERSION_%s (\d+)" % k, text).group(1)
             for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def _has_library(d):
    return bool(d) and os.path.isdir(d) and any(
        f.startswith("libglnbody.so.") for f in os.listdir(d))


class BuildPy(build_py):
    """Writes glnbody/_built.py: the build tree's library directory, where
    one is built (GLNBODY_BUILD_DIR, else build/ or the repository root)."""

    def run(self):
        super().run()
        dirs = [os.environ.get("GLNBODY_BUILD_DIR", ""), os.path.join(ROOT, "build"), ROOT]
        found = next((d for d in dirs if _has_library(d)), None)
        if found:
            target = os.path.join(self.build_lib, "glnbody", "_built.py")
            with open(target, "w") as fp:
                fp.write("# Written by setup.py: the build tree this package was "
                         "installed from.\nLIBRARY_DIR = %r\n" % os.path.abspath(found))


setup(
    name="glnbody",
    version=version(),
    description="Direct N-body and molecular dynamics forces on any OpenGL GPU",
    packages=["glnbody"],
    python_requires=">=3.7",
    install_requires=["numpy", "cffi"],
    cmdclass={"build_py": BuildPy},
)
