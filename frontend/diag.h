/* diag.h - source files, locations and GCC-style diagnostics:
 * "file:line:col: error: message", the source line, a caret under the span. */
#ifndef HPF_DIAG_H
#define HPF_DIAG_H

#include <stdio.h>
#include <stddef.h>

#include "util.h"

/* A source file as read from disk, kept for quoting lines in diagnostics. */
typedef struct SrcFile {
    char *name;          /* as given on the command line */
    char *text;          /* the bytes, NUL-terminated (NULs inside allowed) */
    size_t len;          /* bytes, terminator excluded */
    size_t *line_off;    /* offset of the first byte of each line, 1-based */
    int nlines;
} SrcFile;

SrcFile *srcfile_from_bytes(const char *name, const char *data, size_t len);
SrcFile *srcfile_read(const char *path, char **errmsg);
void srcfile_free(SrcFile *f);

/* A span in a source file: first and last character, both inclusive,
 * lines and columns counted from 1. A zero line means "no location". */
typedef struct {
    const SrcFile *file;
    int line, col;       /* first character */
    int eline, ecol;     /* last character */
} Loc;

Loc loc_span(Loc first, Loc last);   /* from the start of one to the end of the other */

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;
typedef enum { DIAG_TEXT, DIAG_JSON } DiagFormat;

typedef struct {
    FILE *out;           /* stderr normally; tests may redirect */
    DiagFormat format;
    int nerrors, nwarnings;
    int max_errors;      /* stop reporting past this many; 0: no limit */
    int suppressed;      /* errors not shown once the limit was reached */
    int werror;          /* warnings count as errors */
    int json_items;      /* objects written so far, for the array commas */
} Diag;

void diag_init(Diag *d, FILE *out);
void diag_finish(Diag *d);   /* closes the JSON array, says what was suppressed */
void diag_report(Diag *d, DiagLevel lvl, Loc loc, const char *fmt, ...) HPF_PRINTF(4, 5);
void diag_vreport(Diag *d, DiagLevel lvl, Loc loc, const char *fmt, va_list ap);
void diag_error(Diag *d, Loc loc, const char *fmt, ...) HPF_PRINTF(3, 4);
void diag_warning(Diag *d, Loc loc, const char *fmt, ...) HPF_PRINTF(3, 4);
void diag_note(Diag *d, Loc loc, const char *fmt, ...) HPF_PRINTF(3, 4);
int diag_too_many(const Diag *d);    /* the error limit was reached */

#endif
