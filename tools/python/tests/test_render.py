"""Pictures from the library's renderer, as numpy arrays."""
import numpy as np

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


def lj_reference(x, box, rc):
    """Forces and half pair energies (shifted to 0 at rc) of LJ, minimum
    image, in double; with the sums of the pair terms' magnitudes."""
    side = box["hi"] - box["lo"]
    d = x[:, None, :] - x[None, :, :]
    d -= side * np.round(d / side)
    r2 = (d * d).sum(2)
    np.fill_diagonal(r2, np.inf)
    inside = r2 < rc * rc
    s6 = np.where(inside, r2**-3, 0.0)
    fr = 24 * (2 * s6 * s6 - s6) / r2                 # |F| / r
    f_ij = fr[:, :, None] * d
    u_rc = 4 * (rc**-12 - rc**-6)
    u = np.where(inside, 4 * (s6 * s6 - s6) - u_rc, 0.0)
    return (f_ij.sum(1), 0.5 * u.sum(1), np.abs(f_ij).sum(1), 0.5 * np.abs(u).sum(1))


def test_inspector_targets_as_numbers(gl):
    md = glnbody.MD.fcc(3, 0.8442, 1.0, cutoff=2.5, shift=True, backend="compute",
                        context=gl)
    md.step(3)
    panels = md.targets()
    assert [p["name"] for p in panels] == ["force"] and panels[0]["w_name"] == "energy"
    values = panels[0]["values"].astype(np.float64)
    f, pe, f_abs, pe_abs = lj_reference(md.x, md.box, 2.5)
    # Float pair terms summed in float over < 108 neighbours: each sum is
    # within 108 float roundings of its terms' magnitudes.
    bound = 108 * 2.0**-24
    assert (np.abs(values[:, :3] - f) <= bound * f_abs + 1e-6).all()
    assert (np.abs(values[:, 3] - pe) <= bound * pe_abs + 1e-6).all()
    md.close()
    frag = glnbody.Hermite.plummer(256, seed=1, backend="fragment", context=gl)
    frag.evolve(1 / 32)
    names = [p["name"] for p in frag.targets()]
    assert names == ["acceleration", "jerk"]
    for p in frag.targets():
        assert p["values"].ndim == 3 and np.isfinite(p["values"]).all()
    frag.close()
    assert glnbody.Hermite.plummer(16, backend="cpu").targets() == []
