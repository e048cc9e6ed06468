/* diag.c - diagnostics in GCC's format (or one JSON array), with the
 * offending source line and a caret, and the source-file store they quote. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

SrcFile *srcfile_from_bytes(const char *name, const char *data, size_t len)
{
    SrcFile *f = xcalloc(1, sizeof *f);
    f->name = xstrdup(name);
    f->text = xmalloc(len + 1);
    memcpy(f->text, data, len);
    f->text[len] = '\0';
    f->len = len;

    int n = 1;
    for (size_t i = 0; i < len; i++)
        if (f->text[i] == '\n')
            n++;
    f->line_off = xmalloc(((size_t)n + 2) * sizeof *f->line_off);
    f->line_off[0] = 0;
    f->line_off[1] = 0;
    int line = 1;
    for (size_t i = 0; i < len; i++)
        if (f->text[i] == '\n')
            f->line_off[++line] = i + 1;
    f->nlines = line;
    return f;
}

SrcFile *srcfile_read(const char *path, char **errmsg)
{
    size_t len = 0;
    int err;
    char *text = file_read_all(path, &len, &err);
    if (!text) {
        *errmsg = xstrdup(file_error(err));
        return NULL;
    }
    SrcFile *f = srcfile_from_bytes(path, text, len);
    free(text);
    return f;
}

void srcfile_free(SrcFile *f)
{
    if (!f)
        return;
    free(f->name);
    free(f->text);
    free(f->line_off);
    free(f);
}

Loc loc_span(Loc first, Loc last)
{
    Loc l = first;
    if (last.line) {
        l.eline = last.eline;
        l.ecol = last.ecol;
    }
    return l;
}

void diag_init(Diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->max_errors = 50;
}

int diag_too_many(const Diag *d)
{
    return d->max_errors && d->nerrors >= d->max_errors;
}

static const char *level_name[] = {"error", "warning", "note"};

/* The source line of loc, with tabs and control bytes shown as blanks so the
 * caret lines up; long lines are cut around the column. */
static void quote_line(Diag *d, Loc loc)
{
    const SrcFile *f = loc.file;
    if (!f || loc.line < 1 || loc.line > f->nlines)
        return;
    const char *s = f->text + f->line_off[loc.line];
    size_t len = strcspn(s, "\n");
    if (len && s[len - 1] == '\r')
        len--;
    size_t first = 0, col = loc.col > 0 ? (size_t)loc.col - 1 : 0;
    const size_t width = 200;
    if (col > width / 2)
        first = col - width / 2;
    if (first > len)
        first = len;
    size_t last = len - first > width ? first + width : len;
    fputc(' ', d->out);
    fputc(' ', d->out);
    for (size_t i = first; i < last; i++) {
        unsigned char c = (unsigned char)s[i];
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, d->out);
    }
    fputc('\n', d->out);
    fputc(' ', d->out);
    fputc(' ', d->out);
    for (size_t i = first; i < col && i < last + 1; i++)
        fputc(' ', d->out);
    fputc('^', d->out);
    if (loc.eline == loc.line && loc.ecol > loc.col)
        for (int i = loc.col + 1; i <= loc.ecol && (size_t)i <= last; i++)
            fputc('~', d->out);
    fputc('\n', d->out);
}

/* A JSON string of ASCII only: the bytes of a source file, UTF-8 or not,
 * always make valid JSON (util.c's json_string passes UTF-8 through). */
static void json_ascii(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void diag_vreport(Diag *d, DiagLevel lvl, Loc loc, const char *fmt, va_list ap)
{
    if (lvl == DIAG_WARNING && d->werror)
        lvl = DIAG_ERROR;
    if (lvl == DIAG_ERROR) {
        if (diag_too_many(d)) {
            d->suppressed++;
            return;
        }
        d->nerrors++;
    } else if (lvl == DIAG_WARNING) {
        d->nwarnings++;
    } else if (diag_too_many(d)) {
        return;   /* a note belongs to an error that was not shown */
    }

    StrBuf msg = {0};
    sb_vprintf(&msg, fmt, ap);
    if (d->format == DIAG_JSON) {
        fputs(d->json_items++ ? ",\n " : "[", d->out);
        fprintf(d->out, "{\"kind\": \"%s\", \"file\": ", level_name[lvl]);
        json_ascii(d->out, loc.file ? loc.file->name : "");
        fprintf(d->out, ", \"line\": %d, \"column\": %d, \"end_line\": %d, "
                "\"end_column\": %d, \"message\": ",
                loc.line, loc.col, loc.eline ? loc.eline : loc.line,
                loc.ecol ? loc.ecol : loc.col);
        json_ascii(d->out, msg.s);
        fputc('}', d->out);
    } else {
        if (loc.file && loc.line)
            fprintf(d->out, "%s:%d:%d: ", loc.file->name, loc.line, loc.col);
        else if (loc.file)
            fprintf(d->out, "%s: ", loc.file->name);
        fprintf(d->out, "%s: %s\n", level_name[lvl], msg.s);
        if (loc.line)
            quote_line(d, loc);
    }
    sb_free(&msg);
}

/* The variadic entry points, one per level (GCC checks their formats):
 * C cannot pass '...' on, so each makes its va_list for diag_vreport. */
void diag_report(Diag *d, DiagLevel lvl, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, lvl, loc, fmt, ap);
    va_end(ap);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}

void diag_finish(Diag *d)
{
    if (d->format == DIAG_JSON) {
        fputs(d->json_items ? "]\n" : "[]\n", d->out);
        return;
    }
    if (d->suppressed)
        fprintf(d->out, "note: %d more error%s not shown (limit %d)\n",
                d->suppressed, d->suppressed == 1 ? "" : "s", d->max_errors);
}
