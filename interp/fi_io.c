/* fi_io.c - READ for the functional interpreter: list-directed values
 * from the --input file (Fortran literals separated by blanks, commas or
 * line ends; r*value repeats, an empty value between commas leaves its
 * item as it was, '/' ends the statement; each READ starts a new record),
 * or asked for on the terminal, or else unknown with the READ as cause;
 * and the literals of READ data and -D values (fi_parse_literal). */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fi_expr_int.h"

int fi_input_load(Fi *fi, const char *path)
{
    size_t len = 0;
    int err;
    char *text = file_read_all(path, &len, &err);
    if (!text) {
        diag_error(fi->d, (Loc){0}, "cannot read the input file '%s': %s", path,
                   file_error(err));
        return 0;
    }
    fi->in = text;
    fi->in_len = len;
    return 1;
}

/* The values of one READ statement, from a text: the input file, or a
 * line typed at the prompt. */
typedef struct {
    const char *text;
    size_t len, pos;
    long repeat;                  /* r*value: repetitions left of tok */
    char tok[256];
    int null;                     /* tok is an empty value */
    int slash;                    /* '/' ended the statement */
} Reader;

static int blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The next value: 1 with tok (or null set), 0 when there is none. */
static int next_value(Reader *r)
{
    if (r->repeat > 0) {
        r->repeat--;
        return 1;
    }
    if (r->slash)
        return 0;
    while (r->pos < r->len && blank(r->text[r->pos]))
        r->pos++;
    if (r->pos >= r->len)
        return 0;
    char c = r->text[r->pos];
    if (c == '/') {
        r->slash = 1;
        r->pos++;
        return 0;
    }
    r->null = 0;
    if (c == ',') {
        r->pos++;
        r->null = 1;
        return 1;
    }
    size_t start = r->pos;
    if (c == '\'' || c == '"') {
        for (r->pos++; r->pos < r->len; r->pos++)
            if (r->text[r->pos] == c) {
                if (r->pos + 1 < r->len && r->text[r->pos + 1] == c)
                    r->pos++;
                else
                    break;
            }
        if (r->pos < r->len)
            r->pos++;
    } else if (c == '(') {
        while (r->pos < r->len && r->text[r->pos] != ')' && r->text[r->pos] != '\n')
            r->pos++;
        if (r->pos < r->len && r->text[r->pos] == ')')
            r->pos++;
    } else {
        while (r->pos < r->len && !blank(r->text[r->pos]) && r->text[r->pos] != ','
               && r->text[r->pos] != '/')
            r->pos++;
    }
    size_t n = r->pos - start < sizeof r->tok - 1 ? r->pos - start : sizeof r->tok - 1;
    memcpy(r->tok, r->text + start, n);
    r->tok[n] = 0;
    /* the separator after the value */
    while (r->pos < r->len && (r->text[r->pos] == ' ' || r->text[r->pos] == '\t'))
        r->pos++;
    if (r->pos < r->len && r->text[r->pos] == ',')
        r->pos++;
    /* r*value, r* */
    char *star = strchr(r->tok, '*');
    if (star && star > r->tok && c != '\'' && c != '"') {
        int digits = 1;
        for (char *s = r->tok; s < star; s++)
            digits &= *s >= '0' && *s <= '9';
        if (digits) {
            long k = strtol(r->tok, NULL, 10);
            memmove(r->tok, star + 1, strlen(star + 1) + 1);
            r->null = !r->tok[0];
            r->repeat = k > 0 ? k - 1 : 0;
        }
    }
    return 1;
}

/* The rest of the current record is skipped: the next READ starts on a
 * new line. */
static void end_record(Reader *r)
{
    while (r->pos < r->len && r->text[r->pos] != '\n')
        r->pos++;
    if (r->pos < r->len)
        r->pos++;
}

static int find_read_visit(Node *n, void *ctx)
{
    void **c = ctx;
    const Loc *l = c[0];
    if (n->kind == AST_READ && n->loc.line == l->line && n->loc.col == l->col) {
        c[1] = n;
        return 1;
    }
    return n->kind == AST_UNIT ? 0 : ast_children(n, find_read_visit, ctx);
}

/* The READ as written, for the names of its items. */
static const Node *source_read(Fi *fi, const SpStmt *s)
{
    const Node *n = ptrmap_get(&fi->reads, s);
    if (n)
        return n;
    void *c[2] = {(void *)&s->loc, NULL};
    const PtrVec *body = &fi->top->unit->unit->u.unit.body;
    for (int i = 0; i < body->n && !c[1]; i++)
        find_read_visit(body->v[i], c);
    if (c[1])
        ptrmap_put(&fi->reads, s, c[1]);
    return c[1];
}

/* Standard input: READ fmt, items; READ (*, ...); READ (5, ...). */
static int reads_stdin(const Node *io)
{
    if (!io->u.io.control.n)
        return 1;
    const Node *u = io->u.io.control.v[0];
    if (u->kind == AST_KEYWORD_ARG) {
        u = NULL;
        for (int i = 0; i < io->u.io.control.n; i++) {
            const Node *k = io->u.io.control.v[i];
            if (k->kind == AST_KEYWORD_ARG && !strcmp(k->u.kwarg.id, "unit"))
                u = k->u.kwarg.value;
        }
        if (!u)
            return 1;
    }
    return u->kind == AST_STAR || (u->kind == AST_INT_CONST && u->u.konst.ival == 5);
}

static const Symbol *item_sym(const Node *it)
{
    return it->kind == AST_NAME ? it->u.name.sym : it->kind == AST_REF ? it->u.ref.sym : NULL;
}

/* A value typed at the terminal for element q of the item: the next one
 * on the line typed last (several may be typed at once), else a prompt
 * naming the element and a new line. 0 at the end of the terminal's
 * input (no more prompts then) or for an empty value. */
static int prompt(Fi *fi, const SpStmt *s, const char *name, const Store *st, long q,
                  Reader *tr, char *line, size_t size, Vec *v)
{
    while (!next_value(tr)) {
        if (tr->slash)
            return 0;
        if (st->rank) {
            char sub[160] = "";
            size_t at = 0;
            long x = q;
            for (int d = 0; d < st->rank && at < sizeof sub; d++) {
                long e = st->ext[d] > 0 ? (long)st->ext[d] : 1;
                at += (size_t)snprintf(sub + at, sizeof sub - at, "%s%lld", d ? "," : "",
                                       st->lo[d] + x % e);
                x /= e;
            }
            fprintf(stderr, "%s(%s) (read at line %d): ", name, sub, s->line);
        } else {
            fprintf(stderr, "%s (read at line %d): ", name, s->line);
        }
        fflush(stderr);
        if (!fgets(line, (int)size, stdin)) {
            fi->o.prompt = 0;      /* the terminal's input ended: stop asking */
            return 0;
        }
        *tr = (Reader){line, strlen(line), 0, 0, "", 0, 0};
    }
    return !tr->null && fi_parse_literal(tr->tok, v->t, v, 0);
}

/* The source item behind the i-th variable a READ or an intrinsic
 * subroutine sets (its replicated temporary when mapped), or NULL. */
static const Node *source_item(Fi *fi, const SpStmt *s, int i)
{
    const Node *io = s->u.io.stmt;
    if (io->kind == AST_CALL) {
        const Node *call = s->src && s->src->kind == AST_CALL ? s->src : NULL;
        for (int k = 0, j = 0; call && k < call->u.ref.args.n; k++)
            if (sema_intrinsic_sets(call, k) && j++ == i) {
                const Node *a = call->u.ref.args.v[k];
                return a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
            }
        return NULL;
    }
    const Node *src = source_read(fi, s);
    return src && src->u.io.items.n == s->u.io.reads.n ? src->u.io.items.v[i] : NULL;
}

/* READ, and what an intrinsic subroutine (CPU_TIME, RANDOM_NUMBER ...)
 * sets: values the predictor cannot know, unknown with the call as their
 * cause, unless -D holds them. */
int fi_read_quietly(Fi *fi, const SpStmt *s)
{
    int prompt = fi->o.prompt;
    fi->o.prompt = 0;
    int rc = fi_read(fi, s);
    fi->o.prompt = prompt;
    return rc;
}

int fi_read(Fi *fi, const SpStmt *s)
{
    const Node *io = s->u.io.stmt;
    int call = io->kind == AST_CALL;
    if (io->kind != AST_READ && !call)
        return 1;
    Frame *fr = fi->top;
    const PtrVec *reads = &s->u.io.reads;
    int from_file = !call && fi->in && reads_stdin(io);
    Reader r = {fi->in, from_file ? fi->in_len : 0, fi->in_pos, 0, "", 0, 0};
    char line[1024];
    Reader tr = {line, 0, 0, 0, "", 0, 0};
    Ctx c;
    fi_ctx_init(&c, fr);
    for (int i = 0; i < reads->n && !fi->stopped; i++) {
        const Node *t = reads->v[i];
        const Node *orig = source_item(fi, s, i);
        if (!orig)
            orig = t;
        Store *st = t->kind == AST_NAME && !t->u.name.sym ? fi_temp(fi, fr, t->u.name.id)
                    : fi_ref_store(fi, fr, t);
        long *off = NULL, n = 0;
        if (!st || !fi_offsets(fi, &c, t, st, &off, &n)) {
            fi_error_once(fi, t, fi_loc(fi, t), "the functional interpreter cannot read into "
                          "this");
            continue;
        }
        const Symbol *y = item_sym(orig);
        const char *name = y ? y->name : st->name;
        /* a variable held by -D keeps its value; its data are still read */
        Store *os = y && y->kind == SYM_VARIABLE ? fi_var(fi, fr, y) : st;
        int held = os->home->held || st->home->held;
        Cause *cause = NULL;
        Vec v = fv_new(st->t, 1);
        fi_step(fi, n);
        for (long q = 0; q < n; q++) {
            int got = 0, skip = 0;
            if (next_value(&r)) {
                if (r.null) {
                    skip = 1;
                } else if (!(got = fi_parse_literal(r.tok, v.t, &v, 0))) {
                    fi_error_once(fi, orig, fi_loc(fi, orig), "READ at line %d: '%s' is not a "
                                  "valid %s value for '%s'%s", s->line, r.tok, type_name(v.t),
                                  name, fi_literal_range(v.t));
                }
            } else if (fi->o.prompt && !held && !r.slash && !call) {
                got = prompt(fi, s, name, st, q, &tr, line, sizeof line, &v);
            } else if (r.slash) {
                skip = 1;
            }
            if (held || skip || off[q] < 0)
                continue;
            if (!got) {
                if (!cause) {
                    cause = arena_alloc(fi->a, sizeof *cause);
                    cause->name = arena_strdup(fi->a, name);
                    cause->loc = s->loc;
                    cause->line = s->line;
                    cause->by = call ? io->u.ref.id : NULL;
                }
                fv_set_unknown(&v, 0);
            } else if (v.k) {
                v.k[0] = 1;
            }
            fi_put(fi, st, off[q], &v, 0, cause);
        }
        fv_free(&v);
        free(off);
    }
    if (from_file) {
        if (r.repeat == 0)
            end_record(&r);
        fi->in_pos = r.pos;
    }
    return !fi->stopped;
}

/* ---- literals: READ data and -D values ---- */

/* text (a Fortran literal: 12, -1.5d0, .true., 'it''s', (1.0, 2.0)) as
 * v's type into v[p]. Returns 0 when it is not a value of that type. */
const char *fi_literal_range(Type t)
{
    if (t.base == TY_INTEGER)
        return t.kind == 8 ? " (INTEGER(8): a whole number of at most 19 digits)"
                           : " (INTEGER: a whole number from -2147483648 to 2147483647)";
    if (t.base == TY_REAL)
        return t.kind == 8 ? " (REAL(8): a finite number, at most about 1.8e308)"
                           : " (REAL: a finite number, at most about 3.4e38)";
    return "";
}

int fi_parse_literal(const char *text, Type t, Vec *v, long p)
{
    char buf[256];
    while (*text == ' ' || *text == '\t')
        text++;
    snprintf(buf, sizeof buf, "%s", text);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
        buf[--len] = 0;
    if (!len)
        return 0;
    t = v->t;
    if (t.base == TY_CHARACTER) {
        char q = buf[0];
        free(v->s[p]);
        if ((q == '\'' || q == '"') && len >= 2 && buf[len - 1] == q) {
            char *s = xmalloc(len), *o = s;
            for (size_t i = 1; i + 1 < len; i++) {
                *o++ = buf[i];
                if (buf[i] == q && buf[i + 1] == q)
                    i++;
            }
            *o = 0;
            v->s[p] = s;
        } else {
            v->s[p] = xstrdup(buf);
        }
        return 1;
    }
    if (t.base == TY_LOGICAL) {
        const char *s = buf[0] == '.' ? buf + 1 : buf;
        int ch = *s | 0x20;
        if (ch != 't' && ch != 'f')
            return 0;
        v->i[p] = ch == 't';
        return 1;
    }
    if (t.base == TY_COMPLEX && buf[0] == '(') {
        char *comma = strchr(buf, ','), *close = strrchr(buf, ')');
        if (!comma || !close || close < comma)
            return 0;
        *comma = *close = 0;
        Vec re = fv_new((Type){TY_REAL, t.kind}, 1), im = fv_new(re.t, 1);
        int ok = fi_parse_literal(buf + 1, re.t, &re, 0) && fi_parse_literal(comma + 1, im.t, &im, 0);
        v->r[p] = re.r[0];
        v->im[p] = im.r[0];
        fv_free(&re);
        fv_free(&im);
        return ok;
    }
    /* a number: a kind suffix dropped, exponent letters d and q read as e */
    char *us = strchr(buf, '_');
    if (us)
        *us = 0;
    int real = 0;
    for (char *s = buf; *s; s++) {
        if (*s == 'd' || *s == 'D' || *s == 'q' || *s == 'Q')
            *s = 'e';
        real |= *s == '.' || *s == 'e' || *s == 'E';
    }
    char *end;
    if (!real) {
        errno = 0;
        long long x = strtoll(buf, &end, 10);
        if (*end || end == buf || errno == ERANGE)
            return 0;
        /* out of the kind's range: an error, as gfortran's READ gives
           (not a value wrapped round) */
        if (t.base == TY_INTEGER && t.kind != 8 && (x > INT_MAX || x < INT_MIN))
            return 0;
        if (t.base == TY_INTEGER)
            v->i[p] = wrap(t, x);
        else
            v->r[p] = rnd(t, (double)x);
    } else {
        double x = strtod(buf, &end);
        /* (an integer takes no fraction or exponent; a real must be finite
           in its kind) */
        if (*end || end == buf || t.base == TY_INTEGER || !isfinite(rnd(t, x)))
            return 0;
        v->r[p] = rnd(t, x);
    }
    if (t.base == TY_COMPLEX)
        v->im[p] = 0;
    return 1;
}
