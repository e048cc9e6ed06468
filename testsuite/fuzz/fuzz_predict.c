/* fuzz_predict.c - the fuzz target of the whole prediction: any bytes as a
 * free-form program (the first byte picks 1 to 8 processors), compiled,
 * lowered, abstracted and interpreted against the iPSC/860 with a small
 * step budget and a small memory allowance, so that every input ends
 * quickly. Built with libFuzzer (doc/fuzzing.md), and replayed over
 * testsuite/fuzz/corpus-predict by fuzz_replay_predict in make check. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "aag.h"
#include "engine.h"
#include "fi.h"
#include "frontend.h"
#include "sag.h"
#include "spmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    static SagGraph *sag;
    if (!sink) {
        sink = fopen("/dev/null", "w");
        sag = sag_load_string("ipsc860", sag_builtin("ipsc860"), stderr, NULL);
        fi_limit_memory((size_t)64 << 20);
    }
    if (!size || !sink || !sag)
        return 0;
    int np = 1 + (data[0] & 7);
    SrcFile *f = srcfile_from_bytes("fuzz.f90", (const char *)data + 1, size - 1);
    Arena *a = arena_new("fuzz");
    Diag d;
    diag_init(&d, sink);
    d.max_errors = 20;
    Node *ast = frontend_compile(f, FORM_FREE, a, &d, NULL, 0);
    SpProgram *sp = ast ? spmd_lower(ast, a, &d) : NULL;
    if (sp) {
        AagOptions ao = {.granularity = 1};
        Aag *g = aag_build(sp, &ao);
        FiOptions fo = {.prog = sp, .input = "/dev/null", .max_steps = 20000};
        EngineOptions eo = {.np = np, .classes = ENGINE_CLASSES_AUTO,
                            .cls = engine_classes_new()};
        int rc;
        do {
            Fi *fi = fi_new(&fo, &d);
            if (!fi)
                break;
            fi_set_nprocs(fi, np);
            EngineResult r = {0};
            rc = engine_run(g, fi, sag, &eo, &r);
            if (rc < 0)
                fi_report(fi, &d);
            fi_free(fi);
        } while (rc == 1);
        engine_classes_free(eo.cls);
        aag_free(g);
    }
    arena_free(a);
    srcfile_free(f);
    return 0;
}
