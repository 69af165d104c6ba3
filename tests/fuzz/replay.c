/* replay.c - main() of a fuzz target outside libFuzzer: feeds every file of
 * the target's corpus (NB_CORPUS_DIR, or the files and folders named on the
 * command line) to LLVMFuzzerTestOneInput once.  make test runs it; a
 * crash, a sanitizer report or a failed check of the target fails it.
 * Exits 0 when every input ran, 1 when the corpus could not be read. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole file in a malloc'd buffer of exactly its size (so that ASan
 * sees a read past its end); NULL when it cannot be read. */
static uint8_t *read_whole(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    int failed = ferror(fp);
    fclose(fp);
    if (failed || !buf) {
        free(buf);
        return NULL;
    }
    uint8_t *exact = malloc(n ? n : 1);
    if (exact)
        memcpy(exact, buf, n);
    free(buf);
    *size = n;
    return exact;
}

static int replay_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = read_whole(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; *count how many ran. */
static int replay_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0;
    int failed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown || !(grown[n] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
            names = grown ? grown : names;
            failed = 1;
            break;
        }
        names = grown;
        sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!failed && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            failed |= replay_file(names[i]);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    static char *fallback[] = { NB_CORPUS_DIR };
    char **paths = argc > 1 ? argv + 1 : fallback;
    int npaths = argc > 1 ? argc - 1 : 1, count = 0, failed = 0;
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            failed |= replay_dir(paths[i], &count);
        else
            failed |= replay_file(paths[i]), count++;
    }
    if (count == 0) {
        fprintf(stderr, "replay: no input in %s\n", NB_CORPUS_DIR);
        return 1;
    }
    printf("replayed %d inputs%s\n", count, failed ? ", some unreadable" : "");
    return failed;
}
