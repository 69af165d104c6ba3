"""The structs the package declares by hand (glnbody/_cdef.py) have the
sizes the C header gives them: a struct the library fills that is shorter
in Python would be written past its end."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from glnbody import _cdef
from glnbody._lib import ffi


def test_structs_match_the_header(tmp_path):
    header = os.path.join(ROOT, "host", "glnbody.h")
    cc = shutil.which("cc")
    if not cc or not os.path.exists(header):
        pytest.skip("no C compiler or no host/glnbody.h beside the package")
    names = sorted(set(re.findall(r"struct (nb_[a-z0-9_]+) \{", _cdef.CDEF)))
    assert names
    src = tmp_path / "sizes.c"
    src.write_text('#include <stdio.h>\n#include "glnbody.h"\nint main(void)\n{\n' +
                   "".join('    printf("%%s %%zu\\n", "%s", sizeof(struct %s));\n' % (n, n)
                           for n in names) + "    return 0;\n}\n")
    exe = tmp_path / "sizes"
    subprocess.run([cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I" + os.path.dirname(header),
                    "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    sizes = dict(line.split() for line in out.splitlines())
    wrong = ["struct %s: %d bytes here, %s in glnbody.h" % (n, ffi.sizeof("struct " + n), sizes[n])
             for n in names if ffi.sizeof("struct " + n) != int(sizes[n])]
    assert not wrong, "; ".join(wrong)
