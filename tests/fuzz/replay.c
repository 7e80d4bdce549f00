/* Standalone driver: runs a fuzz target over the files (or the files of the folders)
 * named on the command line, so the corpus and every past crash replay under any
 * compiler, sanitizer or valgrind. Prints "N passed, 0 failed" when none crashes. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    uint8_t *buf;
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return -1; }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n > 0 ? (size_t)n : 0);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int i, count = 0;
    for (i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "replay: no %s\n", argv[i]); return 1; }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            if (!d) return 1;
            while ((e = readdir(d)) != NULL) {
                char path[4096];
                if (e->d_name[0] == '.') continue;
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                if (run_file(path) != 0) { closedir(d); return 1; }
                count++;
            }
            closedir(d);
        } else {
            if (run_file(argv[i]) != 0) return 1;
            count++;
        }
    }
    printf("%d passed, 0 failed\n", count);
    return count > 0 ? 0 : 1;
}
