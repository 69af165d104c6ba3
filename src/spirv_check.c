/* spirv_check.c - a SPIR-V module is checked before the driver sees it.
 *
 * The modules are the build's own output
 * (tools/scripts/build_spirv.sh), which lists each one's size and POSIX
 * cksum CRC in spirv/MANIFEST.  A driver
 * may crash on a damaged module instead of refusing it, so a module that
 * is not listed, differs from its entry, or whose header or instruction
 * stream is malformed (SPIR-V 1.0 spec, 2.3 and 2.4) is refused here,
 * naming the file; the loader then compiles the GLSL source instead. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gl_internal.h"

#define SPIRV_MAGIC 0x07230203u

/* POSIX cksum: CRC-32 (polynomial 0x04C11DB7, MSB first) of the bytes and
 * then of the length, least significant byte first, complemented. */
static uint32_t crc_byte(uint32_t crc, unsigned char b)
{
    crc ^= (uint32_t)b << 24;
    for (int k = 0; k < 8; k++)
        crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
    return crc;
}

static uint32_t posix_cksum(const unsigned char *data, size_t size)
{
    uint32_t crc = 0;
    for (size_t k = 0; k < size; k++)
        crc = crc_byte(crc, data[k]);
    for (size_t len = size; len; len >>= 8)
        crc = crc_byte(crc, (unsigned char)(len & 0xff));
    return ~crc;
}

/* The manifest's entry for file: 1 with its CRC and size, 0 if none. */
static int manifest_entry(FILE *fp, const char *file, unsigned long *crc,
                          unsigned long *size)
{
    char line[512], name[256];
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "%lu %lu %255s", crc, size, name) == 3 && strcmp(name, file) == 0)
            return 1;
    return 0;
}

static uint32_t word(const unsigned char *data, size_t k)
{
    uint32_t w;
    memcpy(&w, data + 4 * k, 4);
    return w;
}

/* The header (magic, version 1.0..1.6, id bound > 0, schema 0) and each
 * instruction's word count inside the module. */
static const char *malformed(const unsigned char *data, size_t size)
{
    if (size < 20 || size % 4)
        return "not a whole number of 32-bit words, or shorter than a header";
    if (word(data, 0) != SPIRV_MAGIC)
        return "no SPIR-V magic number";
    uint32_t version = word(data, 1);
    if (version < 0x00010000u || version > 0x00010600u || (version & 0xff00ffffu))
        return "an unknown SPIR-V version";
    if (word(data, 3) == 0 || word(data, 4) != 0)
        return "a bad id bound or schema";
    size_t words = size / 4;
    for (size_t k = 5; k < words;) {
        uint32_t count = word(data, k) >> 16;
        if (count == 0 || count > words - k)
            return "an instruction whose word count runs past the end";
        k += count;
    }
    return NULL;
}

enum nb_status nb_gl_spirv_check(const char *dir, const char *path,
                                 const unsigned char *data, size_t size,
                                 struct nb_error *err)
{
    char manifest[4096];
    unsigned long crc = 0, listed = 0;
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(manifest, sizeof manifest, "%s/spirv/MANIFEST", dir);
    FILE *fp = fopen(manifest, "r");
    if (!fp)
        return nb_error_set(err, NB_ERR_IO, "%s: no manifest %s to check it against "
                            "(make rebuilds spirv/)", path, manifest);
    int found = manifest_entry(fp, file, &crc, &listed);
    fclose(fp);
    if (!found)
        return nb_error_set(err, NB_ERR_IO, "%s: not listed in %s (make rebuilds "
                            "spirv/)", path, manifest);
    if (listed != size || crc != posix_cksum(data, size))
        return nb_error_set(err, NB_ERR_IO, "%s: damaged: %zu bytes with CRC %lu, but "
                            "the build wrote %lu bytes with CRC %lu (%s; make rebuilds "
                            "spirv/)", path, size, (unsigned long)posix_cksum(data, size),
                            listed, crc, manifest);
    const char *why = malformed(data, size);
    if (why)
        return nb_error_set(err, NB_ERR_IO, "%s: not a valid SPIR-V module: %s", path, why);
    return NB_OK;
}
