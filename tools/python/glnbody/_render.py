"""The library's renderer (struct nb_render) behind render() and inspect()."""
import numpy as np

from . import _arrays
from ._errors import ArgumentError, check, new_error
from ._handles import Handle
from ._lib import ffi, lib

_COLORS = {"speed": "NB_COLOR_SPEED", "potential": "NB_COLOR_POTENTIAL",
           "type": "NB_COLOR_TYPE"}
_CAMERA = ("distance", "azimuth", "elevation", "fov", "center", "point_size", "brightness")


def _options(width, height, color, camera):
    opt = ffi.new("struct nb_render_options *")
    lib.nb_render_options_default(opt)
    opt.width = _arrays.integer("width", width, low=1, high=16384)
    opt.height = _arrays.integer("height", height, low=1, high=16384)
    if color not in _COLORS:
        raise ArgumentError("color: %r; give one of %s" % (color, ", ".join(_COLORS)))
    opt.color = getattr(lib, _COLORS[color])
    for key, value in camera.items():
        if key not in _CAMERA:
            raise ArgumentError("render: unknown option %r (known: %s)"
                                % (key, ", ".join(_CAMERA)))
        if key == "center":
            c = _arrays.scalars("center", value, 3)
            opt.camera.center = list(c)
        elif key in ("point_size", "brightness"):
            setattr(opt, key, _arrays.number(key, value, low=0.0))
        else:
            setattr(opt.camera, key, _arrays.number(key, value))
    return opt


class Renderer(Handle):
    """One renderer on a context, re-sized as asked."""

    def __init__(self, context, width, height, color, camera):
        super().__init__()
        self._r = ffi.NULL
        opt = _options(width, height, color, camera)
        r = ffi.new("struct nb_render **")
        err = new_error()
        check(lib.nb_render_create(r, context._gl, opt, err), err)
        self._r = r[0]
        self._shape = (opt.height, opt.width, 3)
        context._adopt(self)

    def _release(self):
        if self._r != ffi.NULL:
            lib.nb_render_destroy(self._r)
            self._r = ffi.NULL

    def configure(self, width, height, color, camera):
        opt = _options(width, height, color, camera)
        err = new_error()
        check(lib.nb_render_set_options(self._r, opt, err), err)
        self._shape = (opt.height, opt.width, 3)

    def pixels(self):
        rgb = np.empty(self._shape, dtype=np.uint8)
        err = new_error()
        check(lib.nb_render_pixels(self._r, ffi.from_buffer("unsigned char[]", rgb),
                                   rgb.nbytes, err), err)
        return rgb

    def draw(self, draw_call):
        err = new_error()
        check(draw_call(err), err)
        return self.pixels()

    def inspect(self, inspect_call):
        text = ffi.new("char[]", 4096)
        err = new_error()
        check(inspect_call(text, 4096, err), err)
        return self.pixels(), ffi.string(text).decode("utf-8", "replace")


def panels(read, handle):
    """The inspector's panels as numbers through read (nb_hermite_inspect_panel
    or nb_md_inspect_panel) on handle: a list of {"name", "w_name", "values"},
    values float32 (height, width, 4) for a render target, (count, 4) for a
    buffer (x, y, z: the vector; w: the scalar)."""
    info = ffi.new("struct nb_inspect_panel *")
    err = new_error()
    check(read(handle, -1, info, ffi.NULL, 0, err), err)
    out = []
    for k in range(info.panels):
        check(read(handle, k, info, ffi.NULL, 0, err), err)
        shape = (info.height, info.width, 4) if info.width else (info.count, 4)
        values = np.empty(shape, dtype=np.float32)
        check(read(handle, k, info, ffi.from_buffer("float[]", values), values.size, err),
              err)
        out.append({"name": ffi.string(info.name).decode(),
                    "w_name": ffi.string(info.w_name).decode(), "values": values})
    return out
