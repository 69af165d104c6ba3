"""Benchmark reports: the JSON of `glnbody bench --report`.

The report writer (the machine's description, the rows and their errors
against the CPU reference) belongs to the program glnbody, not to the
library; bench() runs that program, so that a report made from Python is
the program's own, byte for byte in format, and read_report() reads any
report back."""
import json
import os
import shutil
import subprocess
import tempfile

from ._errors import ArgumentError, Error, IOError as NbIOError
from . import _lib

FORMAT = "glnbody-report"
VERSION = 1


class Report(list):
    """The rows of a report (dicts: kernel, backend, variant, precision, n,
    seconds, rate, ...), with the whole report in .data (software, machine,
    rows) and its file in .path."""

    def __init__(self, data, path):
        super().__init__(data.get("rows", []))
        self.data = data
        self.path = path


def program():
    """The glnbody program bench() runs: $GLNBODY_PROGRAM, the one beside
    the library (its build tree, or PREFIX/bin of an installed PREFIX/lib),
    or the first on PATH."""
    forced = os.environ.get("GLNBODY_PROGRAM")
    if forced:
        return forced
    libdir = os.path.dirname(os.path.abspath(_lib.path))
    for p in (os.path.join(libdir, "glnbody"),
              os.path.join(os.path.dirname(libdir), "bin", "glnbody")):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    found = shutil.which("glnbody")
    if not found:
        raise Error("bench: the program glnbody, which writes reports, was not found "
                    "beside %s nor on PATH; set GLNBODY_PROGRAM" % _lib.path, "NB_ERR_IO")
    return found


def _list(name, value):
    if isinstance(value, (list, tuple)):
        value = ",".join(str(v) for v in value)
    value = str(value)
    if not value or any(c.isspace() for c in value):
        raise ArgumentError("%s: %r is not a list of values" % (name, value))
    return value


def bench(path=None, kernel="ga", backend="compute", variant="auto", precision="A",
          n=(1024, 4096), runs=None, warmup=None, seed=None, softening=None, timeout=None):
    """Measures as `glnbody bench --report PATH` does (each list a list or a
    comma-separated string) and returns the rows (a Report).  With path
    None the report goes to a temporary file, removed after reading."""
    args = [program(), "bench", "--report", None, "--kernel", _list("kernel", kernel),
            "--backend", _list("backend", backend), "--variant", _list("variant", variant),
            "--precision", _list("precision", precision), "--n", _list("n", n)]
    for option, value in (("--runs", runs), ("--warmup", warmup), ("--seed", seed),
                          ("--softening", softening)):
        if value is not None:
            args += [option, _list(option[2:], value)]
    tmpdir = None
    if path is None:
        tmpdir = tempfile.mkdtemp(prefix="glnbody-report-")
        target = os.path.join(tmpdir, "report.json")
    else:
        target = os.fspath(path)
    args[3] = target
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            cls = ArgumentError if done.returncode == 2 else Error
            raise cls(lines[-1] if lines else "glnbody bench failed (exit %d)"
                      % done.returncode)
        return read_report(target)
    finally:
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)


def read_report(path):
    """The report in path (a Report: its rows, the whole in .data); an
    IOError naming the file for one that is missing, not JSON, or not a
    glnbody report of this version."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fp:
            data = json.load(fp)
    except OSError as e:
        raise NbIOError("%s: %s" % (name, e.strerror), "NB_ERR_IO") from None
    except ValueError as e:
        raise NbIOError("%s: not JSON (%s)" % (name, e), "NB_ERR_PARSE") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NbIOError("%s: not a glnbody report" % name, "NB_ERR_PARSE")
    if data.get("version") != VERSION:
        raise NbIOError("%s: a report of version %r; this reads version %d"
                        % (name, data.get("version"), VERSION), "NB_ERR_PARSE")
    if not isinstance(data.get("rows"), list):
        raise NbIOError("%s: the report has no rows" % name, "NB_ERR_PARSE")
    return Report(data, name)
