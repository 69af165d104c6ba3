/* png_write.c - one RGB picture as a PNG file through libpng, written
 * under a temporary name and renamed into place (nb_outfile), so that a
 * failed or killed write never leaves a partial picture. */
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>

#include "nb_host.h"

/* libpng reports through longjmp; the message is kept for the error. */
struct png_failure {
    char message[256];
};

static void on_png_error(png_structp png, png_const_charp message)
{
    struct png_failure *f = png_get_error_ptr(png);
    snprintf(f->message, sizeof f->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;      /* the library never prints */
}

/* Encodes into the open file; NB_ERR_IO naming libpng's reason. */
static enum nb_status encode(FILE *fp, const char *path, int width, int height,
                             const unsigned char *rgb, struct nb_error *err)
{
    struct png_failure failure = { "" };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure,
                                              on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return nb_error_set(err, NB_ERR_NOMEM, "%s: libpng could not start", path);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return nb_error_set(err, NB_ERR_IO, "%s: libpng: %s", path, failure.message);
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* Fast compression: frames are many, and most of a frame is background. */
    png_set_compression_level(png, 3);
    png_write_info(png, info);
    for (int row = 0; row < height; row++)
        png_write_row(png, rgb + (size_t)3 * width * row);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return NB_OK;
}

enum nb_status nb_png_write(const char *path, int width, int height,
                            const unsigned char *rgb, struct nb_error *err)
{
    struct nb_outfile out = { 0 };
    if (!path || width < 1 || height < 1)
        return nb_error_set(err, NB_ERR_ARGS, "nb_png_write: no file or an empty picture");
    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    if (encode(out.fp, path, width, height, rgb, err) != NB_OK) {
        nb_outfile_abort(&out);
        return err->status;
    }
    return nb_outfile_commit(&out, err);
}
