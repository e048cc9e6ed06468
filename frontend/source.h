/* source.h - the reader: turns free-form or fixed-form source into one
 * logical line per statement, with every byte mapped back to its place. */
#ifndef HPF_SOURCE_H
#define HPF_SOURCE_H

#include "diag.h"

typedef struct {
    int line, col;
} Pos;

/* The reader's output. Comments and continuations are gone; each statement
 * ends with '\n'; a directive statement begins with SRC_DIRECTIVE_MARK in
 * place of its sentinel; a label comes first, as digits and a blank. */
typedef struct {
    char *text;          /* NUL-terminated */
    size_t len;
    Pos *pos;            /* pos[i]: source line and column of text[i] */
} Logical;

#define SRC_DIRECTIVE_MARK '\001'

typedef enum { FORM_FREE, FORM_FIXED } SourceForm;

SourceForm src_form_of(const char *filename);   /* by extension: .f .for are fixed */
void src_read_logical(const SrcFile *f, SourceForm form, Diag *d, Logical *out);
void src_logical_free(Logical *l);

/* hpfpredict's phase markers, `!PHASE$ name` (free form, any column; fixed
 * form also CPHASE$ and *PHASE$ in column 1): comments to a compiler, which
 * the reader skips without a note. The marks of f, in line order, in *out
 * (xmalloc'd; free it); returns their number. */
typedef struct {
    int line;
    char name[64];
} SrcPhaseMark;
int src_phase_marks(const SrcFile *f, SrcPhaseMark **out);

#endif
