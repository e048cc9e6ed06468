/* fuzz_replay.c - runs the fuzz target over files named on the command line
 * (the stored corpus), so make check replays it without libFuzzer. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        if (!fp) {
            perror(argv[i]);
            return 1;
        }
        unsigned char *buf = NULL;
        size_t len = 0, cap = 0, n;
        do {
            if (len == cap) {
                cap = cap ? cap * 2 : 65536;
                buf = realloc(buf, cap);
                if (!buf)
                    return 1;
            }
            n = fread(buf + len, 1, cap - len, fp);
            len += n;
        } while (n > 0);
        fclose(fp);
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        printf("ok %d - %s\n", i, argv[i]);
    }
    printf("1..%d\n", argc - 1);
    return 0;
}
