"""Bad input gives an exception naming the cause, never a crash."""
import numpy as np
import pytest

import glnbody

X = np.random.default_rng(3).normal(size=(10, 3))
M = np.full(10, 0.1)


@pytest.mark.parametrize("x, m, match", [
    (X[:, :2], M, "shape"),                         # wrong shape
    (X.ravel(), M, "shape"),
    (X.astype(str), M, "dtype"),                    # wrong dtype
    (X.astype(complex), M, "dtype"),
    (np.zeros((0, 3)), np.zeros(0), "length 0"),    # no particles
    (np.where(np.eye(10, 3) > 0, np.nan, X), M, "not finite"),
    (X, M[:5], "shape"),                            # masses of another length
    (X, np.where(np.arange(10) == 4, np.inf, M), "not finite"),
    ([[1, 2], [3]], M, "not an array|dtype|shape"),
])
def test_bad_arrays(x, m, match):
    with pytest.raises(glnbody.ArgumentError, match=match):
        glnbody.forces(x, m, 0.01, backend="cpu")


def test_bad_arguments_carry_the_library_message():
    with pytest.raises(glnbody.ArgumentError, match="warp"):
        glnbody.forces(X, M, 0.01, backend="warp")
    with pytest.raises(glnbody.ArgumentError, match="Z"):
        glnbody.forces(X, M, 0.01, backend="cpu", precision="Z")
    with pytest.raises(glnbody.ArgumentError, match="eps"):
        glnbody.forces(X, M, -1.0, backend="cpu")
    with pytest.raises(glnbody.ArgumentError, match="gaj"):
        glnbody.forces(X, M, 0.01, backend="cpu", kernel="gaj")
    with pytest.raises(glnbody.ArgumentError, match="eta"):
        glnbody.Hermite(M, X, X, eta=0.0, backend="cpu")
    with pytest.raises(glnbody.ArgumentError, match="m"):
        glnbody.Hermite(-M, X, X, backend="cpu")
    sim = glnbody.Hermite(M, X, X * 0, backend="cpu")
    with pytest.raises(glnbody.ArgumentError, match="nb_hermite_integrate"):
        sim.evolve(1e6)                         # the library's own refusal
    with pytest.raises(glnbody.ArgumentError, match="not finite"):
        sim.evolve(float("nan"))
    with pytest.raises(glnbody.ArgumentError, match="cpu backend"):
        sim.render(32, 32)
    sim.close()
    sim.close()                                 # twice is fine
    assert isinstance(glnbody.ArgumentError("x"), glnbody.Error)
    assert issubclass(glnbody.IOError, glnbody.Error)
    assert issubclass(glnbody.GLError, glnbody.Error)


def test_close_order_with_a_context(gl):
    with glnbody.Context() as ctx:
        sim = glnbody.Hermite.plummer(16, backend="compute", context=ctx)
        sim.evolve(0.01)
    assert ctx.closed and sim.closed            # the context closed its run first
    with pytest.raises(glnbody.ArgumentError, match="closed"):
        sim.x
    with pytest.raises(glnbody.ArgumentError, match="closed"):
        glnbody.Forces("compute", context=ctx)


def test_bad_render_arguments(gl):
    sim = glnbody.Hermite.plummer(16, backend="compute", context=gl)
    with pytest.raises(glnbody.ArgumentError, match="color"):
        sim.render(32, 32, color="rainbow")
    with pytest.raises(glnbody.ArgumentError, match="width"):
        sim.render(0, 32)
    with pytest.raises(glnbody.ArgumentError, match="POTENTIAL|potential"):
        sim.render(32, 32, color="potential")   # refused by the library
    sim.close()
