/* fuzz_sag.c - the fuzz target of the SAG reader: any bytes as a machine
 * description; what is accepted is written with sag_write, and what the
 * writer writes must read back and write again to the same text (a round
 * trip). Built with libFuzzer (doc/fuzzing.md), and replayed over
 * testsuite/fuzz/corpus-sag by fuzz_replay_sag in make check. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* g as sag_write writes it, on the heap. */
static char *written(const SagGraph *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        abort();
    sag_write(m, g);
    fclose(m);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    SagGraph *g = sag_load_string("fuzz.sag", text, sink, NULL);
    if (g) {
        char *once = written(g);
        int nerr = 0;
        SagGraph *h = sag_load_string("written.sag", once, sink, &nerr);
        if (!h) {
            fprintf(stderr, "the writer's text does not read back:\n%s", once);
            abort();
        }
        char *twice = written(h);
        if (strcmp(once, twice) != 0) {
            fprintf(stderr, "written, read and written again differs:\n%s---\n%s", once, twice);
            abort();
        }
        free(twice);
        sag_free(h);
        free(once);
        sag_free(g);
    }
    free(text);
    return 0;
}
