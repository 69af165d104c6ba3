"""Creating and destroying 200 simulations: the resident set settles."""
import os

import pytest

import glnbody


def rss_kib():
    with open("/proc/self/statm") as fp:
        return int(fp.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def closed_by_with(backend, context):
    with glnbody.Hermite.plummer(64, seed=1, backend=backend, context=context) as sim:
        sim.evolve(1 / 256)
        sim.x


def dropped(backend, context):
    sim = glnbody.Hermite.plummer(64, seed=1, backend=backend, context=context)
    sim.evolve(1 / 256)
    del sim                     # freed when the object goes


@pytest.mark.parametrize("backend", ["cpu", "compute"])
def test_200_runs_settle(request, backend):
    ctx = request.getfixturevalue("gl") if backend != "cpu" else None
    for make in (closed_by_with, dropped):
        for _ in range(20):     # warm-up: allocator pools, GL programs
            make(backend, ctx)
        before = rss_kib()
        for _ in range(200):
            make(backend, ctx)
        grown = rss_kib() - before
        # 200 runs of 64 bodies kept alive grow the RSS by 7 MiB (CPU) to
        # 12 MiB (compute); freed, by under 0.3 MiB.
        assert grown < 2048, "%s, %s: RSS grew by %d KiB over 200 runs" % (
            make.__name__, backend, grown)
