"""Pictures from the library's renderer, as numpy arrays."""
import numpy as np
import pytest

import glnbody


def test_render_arrays(gl, tmp_path):
    sim = glnbody.Hermite.plummer(512, seed=1, backend="compute", context=gl)
    img = sim.render(96, 64)
    assert img.shape == (64, 96, 3) and img.dtype == np.uint8
    # Sprites over a plain background (the colour of the corner).
    lit = (img != img[0, 0]).any(axis=2).mean()
    assert 0.005 < lit < 0.7
    wide = sim.render(200, 100, azimuth=90)
    assert wide.shape == (100, 200, 3)
    again = sim.render(96, 64)
    assert np.array_equal(img, again)          # the same frame drawn twice
    sim.close()


def test_inspector_targets(gl):
    sim = glnbody.Hermite.plummer(256, seed=1, backend="fragment", context=gl)
    sim.evolve(1 / 32)
    img, text = sim.inspect(160, 120)
    assert img.shape == (120, 160, 3)
    assert "colour bar" in text
    sim.close()
    md = glnbody.MD.fcc(3, 0.8442, 1.0, backend="compute", context=gl)
    md.step(2)
    img, text = md.inspect(160, 120, color="type")
    assert img.shape == (120, 160, 3) and "colour bar" in text
    md.close()
