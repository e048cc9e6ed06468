/* fuzz_frontend.c - the fuzz target: any bytes through the reader, the
 * scanner, the parser and semantic analysis, as free or fixed form (chosen
 * by the first byte), and what is accepted through the SPMD lowering, its
 * dump and the Fortran emitter. Built with libFuzzer (doc/fuzzing.md), and replayed
 * over the stored corpus by fuzz_replay in make check. */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frontend.h"
#include "spmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    SourceForm form = size && (data[0] & 1) ? FORM_FIXED : FORM_FREE;
    SrcFile *f = srcfile_from_bytes("fuzz.f90", (const char *)data, size);
    Arena *a = arena_new("fuzz");
    Diag d;
    diag_init(&d, sink);
    d.max_errors = 20;
    Node *ast = frontend_compile(f, form, a, &d, NULL, 0);
    if (ast && sink) {
        ast_dump(sink, ast);
        ast_unparse(sink, ast);
        SpProgram *sp = spmd_lower(ast, a, &d);
        if (sp) {
            spmd_dump(sink, sp);
            spmd_emit(sink, sp, form == FORM_FIXED, "fuzz.f90");
        }
    }
    arena_free(a);
    srcfile_free(f);
    return 0;
}
