/* ckpt_text.h - the program's own section of a checkpoint (glnbody.h,
 * section 14): "name=value" lines, reals in hexadecimal (%a, exact), read
 * back as NUL-terminated lines (ckpt_text.c). */
#ifndef NB_CKPT_TEXT_H
#define NB_CKPT_TEXT_H

#include "cli.h"

struct ckpt_text {
    char *text;             /* lines, '\n' ended while written; NUL ended once read */
    size_t size, capacity;
};
enum nb_status nb_ckpt_text_add(struct ckpt_text *t, const char *key, const char *value,
                                struct nb_error *err);
enum nb_status nb_ckpt_text_add_real(struct ckpt_text *t, const char *key, double value,
                                     struct nb_error *err);
enum nb_status nb_ckpt_text_add_int(struct ckpt_text *t, const char *key, long long value,
                                    struct nb_error *err);
/* A 64-bit hash as 16 hexadecimal digits. */
enum nb_status nb_ckpt_text_add_hash(struct ckpt_text *t, const char *key, uint64_t value,
                                     struct nb_error *err);
/* The checkpoint's section, read after the whole file was checked; its
 * lines split.  NB_ERR_PARSE naming path for a section that is not ours. */
enum nb_status nb_ckpt_text_read(struct ckpt_text *t, const char *path,
                                 enum nb_checkpoint_kind kind, uint64_t *n,
                                 struct nb_error *err);
/* The value of key, or NULL. */
const char *nb_ckpt_text_get(const struct ckpt_text *t, const char *key);
/* A real (%a) or integer value; NaN or fallback when missing or malformed. */
double nb_ckpt_text_real(const struct ckpt_text *t, const char *key);
long long nb_ckpt_text_int(const struct ckpt_text *t, const char *key, long long fallback);
/* A hash of nb_ckpt_text_add_hash into *out: 1, or 0 when missing or
 * malformed. */
int nb_ckpt_text_hash(const struct ckpt_text *t, const char *key, uint64_t *out);
void nb_ckpt_text_free(struct ckpt_text *t);
/* On a restart, a note on stderr ("glnbody COMMAND: note: ...") where the
 * value `what` has now differs from the one the run in path saved, then
 * (NULL: not saved, no note): the results will differ. */
/* Removes what a killed run left of its numbered outputs in dir: the
 * temporary files "<prefix>_NNNNN.<ext>.tmp.XXXXXX" of a snapshot or frame
 * it was writing (the finished ones are complete and are rewritten the same
 * by the restart).  dir may be NULL. */
void nb_ckpt_remove_numbered_temporaries(const char *dir, const char *prefix);
void nb_ckpt_text_note(const char *command, const char *what, const char *now,
                       const char *then, const char *path);

#endif
