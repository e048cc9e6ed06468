/* sag_check.c - loads a .sag file (or a built-in description) for
 * testsuite/sag.test: prints the diagnostics and exits 1 on errors,
 * otherwise prints a one-line summary, or the graph in base units. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "sag.h"

int main(int argc, char **argv)
{
    int dump = 0, builtin = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--dump") == 0)
            dump = 1;
        else if (strcmp(argv[i], "--builtin") == 0)
            builtin = 1;
        else
            break;
    }
    if (i != argc - 1) {
        fprintf(stderr, "usage: sag_check [--dump] [--builtin] FILE|NAME\n");
        return 2;
    }
    int nerrors = 0;
    SagGraph *g;
    if (builtin) {
        const char *text = sag_builtin(argv[i]);
        if (!text) {
            fprintf(stderr, "sag_check: no built-in description '%s'\n", argv[i]);
            return 1;
        }
        g = sag_load_string(argv[i], text, stderr, &nerrors);
    } else {
        g = sag_load_file(argv[i], stderr, &nerrors);
    }
    if (!g)
        return 1;
    if (dump) {
        sag_write(stdout, g);
    } else {
        int nparams = 0;
        for (int u = 0; u < sag_nunits(g); u++)
            for (int c = 0; c < SAG_NCOMP; c++)
                nparams += sag_nparams(sag_unit(g, u), (SagComp)c);
        printf("%s: %d units, %d parameters\n", argv[i], sag_nunits(g), nparams);
    }
    sag_free(g);
    return 0;
}
