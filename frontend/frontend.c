/* frontend.c - the front end's entry points: reader, scanner, filter and
 * grammar for one file, then semantic analysis, as written or under
 * another data mapping. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "parser.h"
#include "parse.h"

Node *frontend_parse(const SrcFile *f, SourceForm form, Arena *a, Diag *d)
{
    const char *nul = memchr(f->text, '\0', f->len);
    if (nul) {
        /* binary data: one message, not one per byte */
        int line = 1;
        while (line < f->nlines && f->line_off[line + 1] <= (size_t)(nul - f->text))
            line++;
        int col = (int)(nul - f->text - f->line_off[line]) + 1;
        diag_error(d, (Loc){f, line, col, line, col},
                   "NUL byte in the input: this is not Fortran source text");
        return ast_new(a, AST_SOURCE_FILE, (Loc){f, 1, 1, 1, 1});
    }
    Logical lg;
    src_read_logical(f, form, d, &lg);

    Parser p = {.arena = a, .diag = d, .file = f};
    p.env = (ScanEnv){.lg = &lg, .file = f, .arena = a, .diag = d};
    p.scanner = scan_open(&p.env);
    p.file_node = ast_new(a, AST_SOURCE_FILE, (Loc){f, 1, 1, 1, 1});
    Pos end = lg.pos[lg.len];
    p.eof_loc = (Loc){f, end.line, end.col, end.line, end.col};

    int rc = hpf_parse(&p);
    bld_finish(&p);
    if (rc == 2 && !d->nerrors)
        diag_error(d, p.eof_loc, "out of memory while parsing");
    if (!p.file_node->u.list.items.n && !d->nerrors)
        diag_error(d, p.eof_loc, "no program unit in the file");

    scan_close(p.scanner);
    free(p.toks);
    src_logical_free(&lg);
    return p.file_node;
}

Node *frontend_compile(const SrcFile *f, SourceForm form, Arena *a, Diag *d,
                  Define *defs, int ndefs)
{
    Node *file = frontend_parse(f, form, a, d);
    if (d->nerrors)
        return NULL;
    if (sema_check(file, a, d, defs, ndefs))
        return NULL;
    return file;
}

Node *frontend_compile_remapped(const SrcFile *f, SourceForm form, Arena *a, Diag *d,
                                Define *defs, int ndefs, const Remap *r)
{
    Node *file = frontend_parse(f, form, a, d);
    if (d->nerrors)
        return NULL;
    /* the rewrite works on the parsed tree, before any symbol exists, so
     * sema checks the new directives exactly as if they had been written */
    if (remap_apply(file, r, a, d))
        return NULL;
    if (sema_check(file, a, d, defs, ndefs)) {
        /* the source lines quoted are the directives as written */
        if (r && !r->own) {
            char *label = remap_string(r, REMAP_LABEL);
            diag_note(d, (Loc){f, 0, 0, 0, 0}, "the program was checked with its "
                      "directives rewritten for the mapping %s", label);
            free(label);
        }
        return NULL;
    }
    return file;
}
