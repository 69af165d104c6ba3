"""Shared fixtures: the package (from the source tree unless installed),
the glnbody program the results are compared with, one GL context."""
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
if os.environ.get("GLNBODY_PYTHON_INSTALLED") != "1":
    sys.path.insert(0, os.path.dirname(HERE))

import glnbody  # noqa: E402


@pytest.fixture(scope="package")
def program():
    """The glnbody program built beside the library under test."""
    path = os.environ.get("GLNBODY_PROGRAM") or glnbody.report.program()
    if not os.path.exists(path):
        pytest.skip("no glnbody program at %s" % path)
    return path


@pytest.fixture(scope="package")
def gl():
    """One GL context for every GPU test (skipped where EGL gives none)."""
    try:
        ctx = glnbody.Context()
    except glnbody.GLError as e:
        pytest.skip("no GL context: %s" % e)
    yield ctx
    ctx.close()


def run(args, **kw):
    """Runs the program; its stderr in the failure message."""
    done = subprocess.run(args, capture_output=True, text=True, **kw)
    assert done.returncode == 0, "%s: %s" % (" ".join(args), done.stderr)
    return done


def clustered(n, seed=7):
    """n particles in two tight clumps with close pairs, unequal masses."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)) * 0.05
    x[n // 2:] += 1.0
    x[1] = x[0] + 1e-4          # a close pair
    m = rng.uniform(0.5, 2.0, size=n) / n
    v = rng.normal(size=(n, 3)) * 0.1
    return m, x, v


def read_columns(path, skip_comments=True):
    return np.loadtxt(path, comments="#", ndmin=2)
