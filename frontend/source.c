/* source.c - the reader for both source forms. It removes comments, joins
 * continuation lines, moves fixed-form labels to the front of the statement
 * and replaces directive sentinels (!HPF$, CHPF$, *HPF$) by one mark, so the
 * scanner sees one statement per line and never has to know about columns.
 * Rules: Fortran 95 3.3 (free form) and 3.4 (fixed form); HPF 1.0 2.2
 * (directive sentinels). */
#include "source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

SourceForm src_form_of(const char *filename)
{
    const char *dot = strrchr(filename, '.');
    if (dot && (str_ieq(dot, ".f") || str_ieq(dot, ".for") || str_ieq(dot, ".ftn")))
        return FORM_FIXED;
    return FORM_FREE;
}

typedef struct {
    StrBuf text;
    Pos *pos;
    size_t pos_cap;
    const SrcFile *file;
    Diag *diag;
    char seen[8][8];              /* the sentinels of other tools noted (lower case) */
    int nseen;
    size_t stmt;                  /* where the statement being built starts in text */
    int cut;                      /* it is over MAX_STMT: the rest is dropped */
} Out;

/* The longest statement, continuations joined (doc/limits.md): the front
 * end keeps about 100 bytes per character of a statement. */
enum { MAX_STMT = 1 << 20 };

/* A comment that is another tool's directive (!DIR$, !FCD$, CDEC$, ...: a
 * word of 2 to 5 letters and '$' right after the comment character) is
 * ignored as a comment is, with one note per sentinel. */
static void foreign_directive(Out *o, const char *s, size_t i, size_t n, int ln)
{
    size_t k = i + 1;
    while (k < n && k - i <= 6 && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z')))
        k++;
    if (k >= n || s[k] != '$' || k - i - 1 < 2 || k - i - 1 > 5)
        return;
    char w[8];
    size_t m = 0;
    for (size_t j = i + 1; j < k; j++)
        w[m++] = (char)(s[j] >= 'A' && s[j] <= 'Z' ? s[j] - 'A' + 'a' : s[j]);
    w[m] = 0;
    if (!strcmp(w, "phase"))
        return;                   /* hpfpredict's phase marker (src_phase_marks) */
    for (int j = 0; j < o->nseen; j++)
        if (!strcmp(o->seen[j], w))
            return;
    if (o->nseen < 8)
        memcpy(o->seen[o->nseen++], w, m + 1);
    Loc l = {o->file, ln, (int)i + 1, ln, (int)k + 1};
    diag_note(o->diag, l, "'%.*s' directives are not HPF: ignored", (int)(k - i + 1), s + i);
}

static Loc at(const Out *o, int line, int col)
{
    return (Loc){o->file, line, col, line, col};
}

static void emit(Out *o, char c, int line, int col)
{
    if (c == '\n' || c == '\0') {
        o->stmt = o->text.len + 1;
        o->cut = 0;
    } else if (o->text.len - o->stmt >= MAX_STMT) {
        if (!o->cut++)
            diag_error(o->diag, at(o, line, col), "statement longer than %d characters "
                       "(continuations joined), the limit", MAX_STMT);
        return;
    }
    if (o->text.len + 1 >= o->pos_cap) {
        o->pos_cap = o->pos_cap ? o->pos_cap * 2 : 1024;
        o->pos = xrealloc(o->pos, o->pos_cap * sizeof *o->pos);
    }
    o->pos[o->text.len] = (Pos){line, col};
    sb_putc(&o->text, c);
}

/* Ends the statement being built, if any. */
static void end_stmt(Out *o, int line, int col)
{
    if (o->text.len && o->text.s[o->text.len - 1] != '\n')
        emit(o, '\n', line, col);
}

/* The physical line `ln`: its start and length without the newline. */
static const char *phys_line(const SrcFile *f, int ln, size_t *len)
{
    const char *s = f->text + f->line_off[ln];
    size_t end = ln < f->nlines ? f->line_off[ln + 1] - 1 : f->len;
    size_t n = end - f->line_off[ln];
    if (n && s[n - 1] == '\r')
        n--;
    *len = n;
    return s;
}

/* "!hpf$" at s, any case. */
static int is_sentinel_free(const char *s, size_t n)
{
    return n >= 5 && s[0] == '!' && str_ieqn(s + 1, "hpf$", 4);
}

/* Copies statement text of one line from column index i to n, stopping at a
 * '!' comment; keeps track of character contexts across lines in *quote.
 * Returns the index where copying stopped. A ';' outside a string ends the
 * statement (free form only). */
static size_t copy_text(Out *o, const char *s, size_t i, size_t n, int ln,
                        char *quote, int free_form, int *amp_at)
{
    *amp_at = -1;
    for (; i < n; i++) {
        char c = s[i];
        if (*quote) {
            if (c == *quote) {
                if (i + 1 < n && s[i + 1] == *quote) {
                    emit(o, c, ln, (int)i + 1);
                    i++;
                } else {
                    *quote = 0;
                }
            } else if (free_form && c == '&') {
                /* '&' last on the line continues the character context */
                size_t j = i + 1;
                while (j < n && (s[j] == ' ' || s[j] == '\t'))
                    j++;
                if (j == n) {
                    *amp_at = (int)i;
                    return n;
                }
            }
            emit(o, c, ln, (int)i + 1);
            continue;
        }
        if (c == '!')
            break;
        if (c == '\'' || c == '"')
            *quote = c;
        if (free_form && c == '&') {
            size_t j = i + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (j == n || s[j] == '!') {
                *amp_at = (int)i;
                return n;
            }
        }
        if (free_form && c == ';') {
            end_stmt(o, ln, (int)i + 1);
            continue;
        }
        emit(o, c == '\t' ? ' ' : c, ln, (int)i + 1);
    }
    return i;
}

static void read_free(Out *o)
{
    const SrcFile *f = o->file;
    int continuing = 0, cont_directive = 0, cont_line = 0;
    char quote = 0;
    for (int ln = 1; ln <= f->nlines; ln++) {
        size_t n, i = 0;
        const char *s = phys_line(f, ln, &n);
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        int directive = 0;
        if (i < n && is_sentinel_free(s + i, n - i)) {
            directive = 1;
            i += 5;
        } else if (i == n || s[i] == '!') {
            if (i < n)
                foreign_directive(o, s, i, n, ln);
            if (continuing && cont_directive) {
                diag_error(o->diag, at(o, ln, (int)i + 1),
                           "directive continuation line must begin with !HPF$");
                continuing = 0;
                quote = 0;
            }
            continue;   /* blank or comment line */
        }
        if (continuing) {
            if (directive != cont_directive) {
                diag_error(o->diag, at(o, ln, (int)i + 1),
                           directive ? "a directive cannot continue a statement"
                                     : "directive continuation line must begin with !HPF$");
                end_stmt(o, ln, 1);
                quote = 0;
            }
            while (i < n && (s[i] == ' ' || s[i] == '\t'))
                i++;
            if (i < n && s[i] == '&')
                i++;
            else if (!quote && o->text.len && o->text.s[o->text.len - 1] != '\n')
                emit(o, ' ', ln, (int)i + 1);   /* the line break separates tokens */
        } else {
            end_stmt(o, ln, 1);
            quote = 0;
            if (directive)
                emit(o, SRC_DIRECTIVE_MARK, ln, (int)i - 4);
        }
        int amp;
        copy_text(o, s, i, n, ln, &quote, 1, &amp);
        continuing = amp >= 0;
        cont_directive = directive;
        cont_line = ln;
        if (!continuing) {
            end_stmt(o, ln, (int)n + 1);
            quote = 0;
        }
    }
    if (continuing)
        diag_error(o->diag, at(o, cont_line, 1),
                   "continuation '&' on the last line of the file");
    end_stmt(o, f->nlines, 1);
}

/* Fixed form: a comment line has C, c, * or ! in column 1; a directive has a
 * sentinel in columns 1-5; column 6 marks continuations; text ends at 72. */
static void read_fixed(Out *o)
{
    const SrcFile *f = o->file;
    int have_stmt = 0, stmt_directive = 0, warned72 = 0;
    char quote = 0;
    for (int ln = 1; ln <= f->nlines; ln++) {
        size_t n;
        const char *s = phys_line(f, ln, &n);
        size_t blank = 0;
        while (blank < n && (s[blank] == ' ' || s[blank] == '\t'))
            blank++;
        if (blank == n)
            continue;
        int directive = 0;
        char c0 = s[0];
        if ((c0 == 'c' || c0 == 'C' || c0 == '*' || c0 == '!') && n >= 5
            && str_ieqn(s + 1, "hpf$", 4)) {
            directive = 1;
        } else if (c0 == 'c' || c0 == 'C' || c0 == '*' || c0 == '!'
                   || (blank < 5 && s[blank] == '!')) {
            foreign_directive(o, s, c0 == ' ' || c0 == '\t' ? blank : 0, n, ln);
            continue;
        }

        /* DEC tab form: a tab in the label field starts the statement */
        size_t text_start = 6, label_end = 5;
        int cont = 0;
        if (!directive) {
            size_t tab = 0;
            while (tab < n && tab < 6 && s[tab] != '\t')
                tab++;
            if (tab < 6 && tab < n) {
                label_end = tab;
                text_start = tab + 1;
                if (text_start < n && s[text_start] >= '1' && s[text_start] <= '9') {
                    cont = 1;
                    text_start++;
                }
            }
        }
        if (text_start == 6 && n > 5 && s[5] != ' ' && s[5] != '0')
            cont = 1;

        /* label field */
        char label[6];
        int nlabel = 0, label_col = 0;
        if (!directive) {
            for (size_t i = 0; i < label_end && i < n; i++) {
                if (s[i] == ' ')
                    continue;
                if (!isdigit((unsigned char)s[i])) {
                    diag_error(o->diag, at(o, ln, (int)i + 1),
                               "invalid character in the label field (columns 1-5): "
                               "a fixed-form statement starts in column 7");
                    nlabel = -1;
                    break;
                }
                if (!label_col)
                    label_col = (int)i + 1;
                label[nlabel++] = s[i];
            }
        }
        if (nlabel < 0)
            continue;

        if (cont && !have_stmt) {
            diag_error(o->diag, at(o, ln, 6), "continuation line with no statement to continue");
            cont = 0;   /* read it as the first line of a statement */
        }
        if (cont) {
            if (directive != stmt_directive) {
                diag_error(o->diag, at(o, ln, 6),
                           "continuation line does not continue a statement of its kind");
                continue;
            }
            if (nlabel > 0)
                diag_error(o->diag, at(o, ln, label_col),
                           "a continuation line cannot have a label");
        } else {
            end_stmt(o, ln, 1);
            quote = 0;
            have_stmt = 1;
            stmt_directive = directive;
            if (directive)
                emit(o, SRC_DIRECTIVE_MARK, ln, 1);
            for (int k = 0; k < nlabel; k++)
                emit(o, label[k], ln, label_col + k);
            if (nlabel)
                emit(o, ' ', ln, label_col + nlabel);
        }
        size_t end = n < 72 ? n : 72;
        if (n > 72 && !warned72) {
            size_t j = 72;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (j < n) {
                diag_warning(o->diag, at(o, ln, 73),
                             "text beyond column 72 is ignored in fixed form");
                warned72 = 1;
            }
        }
        int amp;
        size_t start_len = o->text.len;
        if (text_start < end)
            copy_text(o, s, text_start, end, ln, &quote, 0, &amp);
        while (!quote && o->text.len > start_len && o->text.s[o->text.len - 1] == ' ')
            o->text.s[--o->text.len] = '\0';   /* blanks up to column 72 mean nothing */
        for (size_t c = end; quote && c < 72; c++)
            emit(o, ' ', ln, (int)c + 1);      /* ... except inside a continued string */
    }
    end_stmt(o, f->nlines, 1);
}

void src_read_logical(const SrcFile *f, SourceForm form, Diag *d, Logical *out)
{
    Out o = {.file = f, .diag = d};
    if (form == FORM_FIXED)
        read_fixed(&o);
    else
        read_free(&o);
    emit(&o, '\0', f->nlines, 1);    /* keeps pos[len] valid */
    o.text.len--;
    out->text = o.text.s;
    out->len = o.text.len;
    out->pos = o.pos;
}

void src_logical_free(Logical *l)
{
    free(l->text);
    free(l->pos);
    l->text = NULL;
    l->pos = NULL;
}

int src_phase_marks(const SrcFile *f, SrcPhaseMark **out)
{
    int n = 0, cap = 0;
    *out = NULL;
    for (int ln = 1; ln <= f->nlines; ln++) {
        size_t len;
        const char *s = phys_line(f, ln, &len), *e = s + len;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        /* !PHASE$, and in fixed form CPHASE$ or *PHASE$ in column 1 */
        if (e - s < 8 || !(*s == '!' || ((*s == 'c' || *s == 'C' || *s == '*') &&
                                         s == f->text + f->line_off[ln]))
            || !str_ieqn(s + 1, "phase$", 6))
            continue;
        s += 7;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        const char *t = e;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        SrcPhaseMark *m = &(*out)[n++];
        m->line = ln;
        snprintf(m->name, sizeof m->name, "%.*s", (int)(t - s), s);
    }
    return n;
}
