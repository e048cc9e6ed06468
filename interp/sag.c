/* sag.c - the reader of .sag machine descriptions (doc/sag.md): a small
 * scanner and a recursive-descent parser building the unit tree in one arena,
 * with GCC-style diagnostics, and a writer that prints it back in base units. */
#include <config.h>

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "sag.h"
#include "util.h"

struct SagUnit {
    const char *name;
    int count;                    /* identical instances, 1 unless [N] */
    SagUnit *parent;
    SagComp comp;                 /* the parent's compound component holding it */
    SagForm form[SAG_NCOMP];
    int comp_line[SAG_NCOMP];     /* where each component was written; 0: absent */
    PtrVec params[SAG_NCOMP];     /* SagParam *, in file order */
    PtrVec children;              /* SagUnit *, in file order */
    int line;
};

struct SagGraph {
    Arena *arena;                 /* owns the units, parameters and names */
    SagUnit *root;
    PtrVec units;                 /* preorder */
};

/* ---- units of measure and the known parameters ---- */

static const struct {
    const char *name;
    SagKind kind;
    double scale;                 /* to the base unit of kind */
} units[] = {
    {"s", SAG_TIME, 1},         {"ms", SAG_TIME, 1e-3},
    {"us", SAG_TIME, 1e-6},     {"ns", SAG_TIME, 1e-9},
    {"cycles", SAG_CYCLES, 1},  {"cycle", SAG_CYCLES, 1},
    {"Hz", SAG_FREQ, 1},        {"kHz", SAG_FREQ, 1e3},
    {"MHz", SAG_FREQ, 1e6},     {"GHz", SAG_FREQ, 1e9},
    {"B", SAG_SIZE, 1},         {"KiB", SAG_SIZE, 1024.0},
    {"MiB", SAG_SIZE, 1048576.0}, {"GiB", SAG_SIZE, 1073741824.0},
    {"KB", SAG_SIZE, 1e3},      {"MB", SAG_SIZE, 1e6},
    {"GB", SAG_SIZE, 1e9},
    {"B/s", SAG_RATE, 1},       {"KB/s", SAG_RATE, 1e3},
    {"MB/s", SAG_RATE, 1e6},    {"GB/s", SAG_RATE, 1e9},
    {"KiB/s", SAG_RATE, 1024.0}, {"MiB/s", SAG_RATE, 1048576.0},
};

#define TIME_OR_CYCLES SAG_TIME   /* a time parameter may be given in cycles */

/* Parameters the reader checks (component, kind, keyword values). A name
 * ending in '.' covers every name with that prefix, and a '#' in a name
 * stands for a level's number (one or more digits). Other names are
 * accepted as written, so that a description can carry more than the
 * engine reads; the list is doc/sag.md's table. */
static const struct {
    const char *name;
    SagComp comp;
    SagKind kind;
    const char *words;            /* SAG_KEYWORD: the allowed values */
} known[] = {
    {"cpu.clock", SAG_PROCESSING, SAG_FREQ, NULL},
    {"cpu.peak.sp", SAG_PROCESSING, SAG_COUNT, NULL},
    {"cpu.peak.dp", SAG_PROCESSING, SAG_COUNT, NULL},
    {"op.div.overlap", SAG_PROCESSING, SAG_COUNT, NULL},
    {"op.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"loop.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"cond.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"call.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"lib.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"vec.width", SAG_PROCESSING, SAG_SIZE, NULL},
    {"vec.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"rt.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"red.window", SAG_PROCESSING, SAG_COUNT, NULL},
    {"red.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"dcache.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"dcache.block", SAG_MEMORY, SAG_SIZE, NULL},
    {"dcache.assoc", SAG_MEMORY, SAG_COUNT, NULL},
    {"dcache.replacement", SAG_MEMORY, SAG_KEYWORD, "lru fifo random"},
    {"dcache.write", SAG_MEMORY, SAG_KEYWORD, "write_back write_through"},
    {"icache.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"icache.block", SAG_MEMORY, SAG_SIZE, NULL},
    {"icache.assoc", SAG_MEMORY, SAG_COUNT, NULL},
    {"icache.replacement", SAG_MEMORY, SAG_KEYWORD, "lru fifo random"},
    {"cache.l#.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"cache.l#.block", SAG_MEMORY, SAG_SIZE, NULL},
    {"cache.l#.assoc", SAG_MEMORY, SAG_COUNT, NULL},
    {"cache.l#.shared", SAG_MEMORY, SAG_COUNT, NULL},
    {"cache.l#.fetch", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"cache.l#.store", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"cache.l#.bandwidth", SAG_MEMORY, SAG_RATE, NULL},
    {"cache.l#.bandwidth.write", SAG_MEMORY, SAG_RATE, NULL},
    {"mem.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"mem.page", SAG_MEMORY, SAG_SIZE, NULL},
    {"mem.page.first", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.alloc", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.prefetch.stride", SAG_MEMORY, SAG_SIZE, NULL},
    {"mem.fetch.", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.store.", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.access", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.tlb_miss", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.rw_switch", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"net.topology", SAG_COMM, SAG_KEYWORD,
     "hypercube mesh torus ring bus crossbar point_to_point"},
    {"net.routing", SAG_COMM, SAG_KEYWORD,
     "ecube dimension_order circuit store_forward wormhole direct"},
    {"net.placement", SAG_COMM, SAG_KEYWORD, "gray linear"},
    {"net.contention", SAG_COMM, SAG_KEYWORD, "on off"},
    {"net.receive.post", SAG_COMM, SAG_KEYWORD, "early late"},
    {"net.node_procs", SAG_COMM, SAG_COUNT, NULL},
    {"net.dimension", SAG_COMM, SAG_COUNT, NULL},
    {"net.bandwidth", SAG_COMM, SAG_RATE, NULL},
    {"net.short_max", SAG_COMM, SAG_SIZE, NULL},
    {"net.static.buffer", SAG_COMM, SAG_SIZE, NULL},
    {"net.dynamic.buffer", SAG_COMM, SAG_SIZE, NULL},
    {"net.static.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"net.dynamic.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"sync.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"coll.broadcast", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear scatter_allgather"},
    {"coll.broadcast.large", SAG_COMM, SAG_KEYWORD, "tree linear scatter_allgather"},
    {"coll.broadcast.switch", SAG_COMM, SAG_SIZE, NULL},
    {"coll.multicast", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear scatter_allgather"},
    {"coll.reduction", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear ring"},
    {"coll.reduction.large", SAG_COMM, SAG_KEYWORD, "tree recursive_doubling linear ring"},
    {"coll.reduction.switch", SAG_COMM, SAG_SIZE, NULL},
    {"coll.alltoall", SAG_COMM, SAG_KEYWORD, "linear pairwise bruck"},
    {"coll.shift", SAG_COMM, SAG_KEYWORD, "nearest_neighbour pairwise linear"},
    {"coll.first.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"io.startup", SAG_IO, TIME_OR_CYCLES, NULL},
    {"io.per_byte", SAG_IO, TIME_OR_CYCLES, NULL},
    {"io.bandwidth", SAG_IO, SAG_RATE, NULL},
    {"io.read.startup", SAG_IO, TIME_OR_CYCLES, NULL},
    {"io.read.per_byte", SAG_IO, TIME_OR_CYCLES, NULL},
    {"comm.overlap", SAG_COMM, SAG_COUNT, NULL},
    {"comm.jitter", SAG_COMM, SAG_COUNT, NULL},
    {"comm.jitter.interval", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"net.load", SAG_COMM, SAG_COUNT, NULL},
};

static const char *const comp_names[SAG_NCOMP] = {"processing", "memory", "comm", "io"};

const char *sag_comp_name(SagComp c)
{
    return c >= 0 && c < SAG_NCOMP ? comp_names[c] : "?";
}

const char *sag_kind_name(SagKind k)
{
    switch (k) {
    case SAG_COUNT: return "a plain number";
    case SAG_TIME: return "a time";
    case SAG_CYCLES: return "cycles";
    case SAG_FREQ: return "a frequency";
    case SAG_SIZE: return "a size";
    case SAG_RATE: return "a rate";
    case SAG_KEYWORD: return "a keyword";
    }
    return "?";
}

/* Whether name is covered by the known name k: equal, with a '#' of k
 * matching one or more digits, or starting with k when k ends in '.'. */
static int known_match(const char *name, const char *k)
{
    for (; *k; k++) {
        if (*k == '#') {
            if (!isdigit((unsigned char)*name))
                return 0;
            while (isdigit((unsigned char)*name))
                name++;
        } else if (*name++ != *k) {
            return 0;
        }
        if (k[0] == '.' && k[1] == 0)
            return 1;
    }
    return *name == 0;
}

static int known_index(const char *name)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known_match(name, known[i].name))
            return (int)i;
    return -1;
}

/* Is WORD one of the space-separated WORDS? */
static int word_in(const char *word, const char *words)
{
    size_t n = strlen(word);
    for (const char *s = words; *s;) {
        size_t m = strcspn(s, " ");
        if (m == n && strncmp(s, word, n) == 0)
            return 1;
        s += m;
        s += strspn(s, " ");
    }
    return 0;
}

/* The two parameters that are fractions: why VALUE is out of range for
 * NAME, or NULL. The engine divides by 1 - net.load, so 1 is refused. */
static const char *fraction_range(const char *name, double value)
{
    if (strcmp(name, "net.load") == 0 && !(value >= 0 && value < 1))
        return "'net.load' must be below 1 (the network saturates at 1)";
    if (strcmp(name, "comm.overlap") == 0 && !(value >= 0 && value <= 1))
        return "'comm.overlap' is a fraction from 0 to 1";
    return NULL;
}

/* ---- scanner ---- */

typedef enum { T_EOF, T_NL, T_WORD, T_NUM, T_LBRACE, T_RBRACE, T_EQ, T_LBRACK, T_RBRACK } TokKind;

typedef struct {
    TokKind kind;
    const char *s;                /* its text in the source */
    int len;
    int line, col;
    double num;                   /* T_NUM */
} Token;

typedef struct {
    SrcFile *file;
    Diag *diag;
    SagGraph *g;
    const char *p;                /* next character to scan */
    int line, col;
    Token tok;                    /* the current token */
    jmp_buf fail;                 /* for errors after which the structure is lost */
    char *msg;                    /* not NULL: the first error goes here, not to diag */
    size_t msglen;
    int nmsg;                     /* errors seen in that mode */
    int depth;                    /* units open */
    /* the parameters seen, by unit and name (a duplicate is an error):
       open addressing, so that a generated file of 10^5 parameters reads
       in linear time */
    struct SeenParam { const SagUnit *u; const SagParam *q; } *seen;
    size_t nseen, capseen;
} Parser;

static size_t seen_slot(const Parser *P, const SagUnit *u, const char *name)
{
    size_t h = 2166136261u ^ (size_t)u;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    size_t i = h & (P->capseen - 1);
    while (P->seen[i].q && (P->seen[i].u != u || strcmp(P->seen[i].q->name, name)))
        i = (i + 1) & (P->capseen - 1);
    return i;
}

/* The parameter named so that unit u gave already, or NULL; q (not NULL)
 * is recorded when there is none. */
static const SagParam *seen_param(Parser *P, const SagUnit *u, const char *name,
                                  const SagParam *q)
{
    if (2 * (P->nseen + 1) > P->capseen) {
        struct SeenParam *old = P->seen;
        size_t oldcap = P->capseen;
        P->capseen = oldcap ? 2 * oldcap : 256;
        P->seen = xcalloc(P->capseen, sizeof *P->seen);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].q)
                P->seen[seen_slot(P, old[i].u, old[i].q->name)] = old[i];
        free(old);
    }
    size_t i = seen_slot(P, u, name);
    if (P->seen[i].q)
        return P->seen[i].q;
    if (q) {
        P->seen[i] = (struct SeenParam){u, q};
        P->nseen++;
    }
    return NULL;
}

/* Units nested deeper are refused: the parser and the writers recurse
 * once a level (doc/limits.md). */
enum { SAG_MAX_DEPTH = 100 };

static Loc tok_loc(const Parser *P, const Token *t)
{
    Loc l = {P->file, t->line, t->col, t->line, t->col + (t->len > 1 ? t->len - 1 : 0)};
    return l;
}

/* An experiment's value is read by the same parser, but its error is one
 * line for the caller, not a diagnostic quoting a file. */
static void report(Parser *P, Loc l, const char *fmt, va_list ap)
{
    if (!P->msg)
        diag_vreport(P->diag, DIAG_ERROR, l, fmt, ap);
    else if (P->nmsg++ == 0)
        vsnprintf(P->msg, P->msglen, fmt, ap);
}

static void error_at(Parser *P, const Token *t, const char *fmt, ...) HPF_PRINTF(3, 4);
static void error_at(Parser *P, const Token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(P, tok_loc(P, t), fmt, ap);
    va_end(ap);
}

static void error_loc(Parser *P, Loc l, const char *fmt, ...) HPF_PRINTF(3, 4);
static void error_loc(Parser *P, Loc l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(P, l, fmt, ap);
    va_end(ap);
}

static HPF_NORETURN void fail(Parser *P)
{
    longjmp(P->fail, 1);
}

static int is_word_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '/' || c == '-';
}

/* The text of a token for a message (at most 40 characters of it). */
static const char *tok_text(Parser *P, const Token *t)
{
    switch (t->kind) {
    case T_EOF: return "end of file";
    case T_NL: return "end of line";
    default: return arena_printf(P->g->arena, "'%.*s'", t->len > 40 ? 40 : t->len, t->s);
    }
}

static void next(Parser *P)
{
    for (;;) {
        while (*P->p == ' ' || *P->p == '\t' || *P->p == '\r' || *P->p == '\f') {
            P->p++;
            P->col++;
        }
        if (*P->p == '#')
            while (*P->p && *P->p != '\n') {
                P->p++;
                P->col++;
            }
        Token *t = &P->tok;
        t->s = P->p;
        t->line = P->line;
        t->col = P->col;
        t->len = 1;
        const char *s = P->p;
        if (s >= P->file->text + P->file->len) {
            t->kind = T_EOF;
            t->len = 0;
            return;
        }
        switch (*s) {
        case '\n':
            t->kind = T_NL;
            P->p++;
            P->line++;
            P->col = 1;
            return;
        case '{': t->kind = T_LBRACE; break;
        case '}': t->kind = T_RBRACE; break;
        case '=': t->kind = T_EQ; break;
        case '[': t->kind = T_LBRACK; break;
        case ']': t->kind = T_RBRACK; break;
        default: {
            const char *e = s;
            if (isdigit((unsigned char)*s) || ((*s == '-' || *s == '.') && isdigit((unsigned char)s[1]))) {
                if (*e == '-')
                    e++;
                while (isdigit((unsigned char)*e))
                    e++;
                if (*e == '.')
                    for (e++; isdigit((unsigned char)*e); e++)
                        ;
                if ((*e == 'e' || *e == 'E') &&
                    (isdigit((unsigned char)e[1]) ||
                     ((e[1] == '+' || e[1] == '-') && isdigit((unsigned char)e[2])))) {
                    e += 2;
                    while (isdigit((unsigned char)*e))
                        e++;
                }
                char *buf = xmalloc((size_t)(e - s) + 1);   /* every digit of it */
                memcpy(buf, s, (size_t)(e - s));
                buf[e - s] = '\0';
                t->kind = T_NUM;
                t->num = strtod(buf, NULL);
                free(buf);
            } else if (isalpha((unsigned char)*s) || *s == '_') {
                while (is_word_char((unsigned char)*e))
                    e++;
                t->kind = T_WORD;
            } else {
                Loc l = {P->file, P->line, P->col, P->line, P->col};
                error_loc(P, l, "stray character '%c' (0x%02x)",
                           isprint((unsigned char)*s) ? *s : '?', (unsigned char)*s);
                fail(P);
            }
            t->len = (int)(e - s);
            P->p = e;
            P->col += t->len;
            return;
        }
        }
        P->p++;
        P->col++;
        return;
    }
}

static int is_word(const Token *t, const char *w)
{
    return t->kind == T_WORD && (size_t)t->len == strlen(w) && strncmp(t->s, w, (size_t)t->len) == 0;
}

static void skip_newlines(Parser *P)
{
    while (P->tok.kind == T_NL)
        next(P);
}

/* After an error in a parameter: go on at the next line (or at the '}'
 * that closes the component, so that braces stay balanced). */
static void skip_line(Parser *P)
{
    while (P->tok.kind != T_NL && P->tok.kind != T_EOF && P->tok.kind != T_RBRACE)
        next(P);
}

/* lower-case words of letters, digits and '_', joined by dots */
static int valid_name(const char *s, int len, int dots)
{
    int start = 1;
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.' && dots && !start && i + 1 < len) {
            start = 1;
            continue;
        }
        if (start ? !(islower(c) || c == '_') : !(islower(c) || isdigit(c) || c == '_'))
            return 0;
        start = 0;
    }
    return len > 0;
}

/* ---- parser ---- */

/* Whether a value of 0 is meaningless for a parameter: a frequency, a
 * rate, or a size the engine divides by or sizes a cache or a page with
 * (a protocol's switch size, net.short_max, may be 0). */
static int zero_refused(const char *name, SagKind k)
{
    if (k == SAG_FREQ || k == SAG_RATE)
        return 1;
    if (k != SAG_SIZE || !name)
        return 0;
    size_t n = strlen(name);
    return (n > 6 && !strcmp(name + n - 6, ".block")) || (n > 5 && !strcmp(name + n - 5, ".size")) ||
           !strcmp(name, "mem.page") || !strcmp(name, "vec.width");
}

static const SagParam *find_own(const SagUnit *u, const char *name)
{
    for (int c = 0; c < SAG_NCOMP; c++)
        for (int i = 0; i < u->params[c].n; i++) {
            const SagParam *q = u->params[c].v[i];
            if (strcmp(q->name, name) == 0)
                return q;
        }
    return NULL;
}

/* " for 'NAME'" in a message, or nothing when the caller names it. */
static const char *for_name(Parser *P, const char *name)
{
    return name ? arena_printf(P->g->arena, " for '%s'", name) : "";
}

/* value -> NUMBER [UNIT] | KEYWORD, into Q's kind, value and keyword; *VT
 * gets the value's token, its unit included. Returns 0, or -1 after an
 * error, with the current token where it was found. */
static int parse_value(Parser *P, SagParam *q, const char *name, Token *vt)
{
    *vt = P->tok;
    if (vt->kind == T_NUM) {
        q->value = vt->num;
        q->kind = SAG_COUNT;
        if (vt->num < 0) {
            error_at(P, vt, "negative value%s", for_name(P, name));
            return -1;
        }
        next(P);
        if (P->tok.kind == T_WORD) {
            size_t i;
            for (i = 0; i < sizeof units / sizeof units[0]; i++)
                if (is_word(&P->tok, units[i].name))
                    break;
            if (i == sizeof units / sizeof units[0]) {
                error_at(P, &P->tok, "unknown unit %s (see doc/sag.md for the units)",
                         tok_text(P, &P->tok));
                return -1;
            }
            q->kind = units[i].kind;
            q->value *= units[i].scale;
            vt->len = (int)(P->tok.s + P->tok.len - vt->s);   /* the value with its unit */
            next(P);
        }
        if (q->value == 0 && !P->msg && zero_refused(name, q->kind)) {
            /* (as --set refuses them, in its own words: a zero clock,
               bandwidth or block divides) */
            error_at(P, vt, "%s must be above 0%s", sag_kind_name(q->kind), for_name(P, name));
            return -1;
        }
        if (!isfinite(q->value)) {
            if (name)
                error_at(P, vt, "value %s%s is out of range (at most %g in seconds, hertz, "
                         "bytes or bytes per second)", tok_text(P, vt), for_name(P, name),
                         DBL_MAX);
            else
                error_at(P, vt, "out of range (at most %g in seconds, hertz, bytes or bytes "
                         "per second)", DBL_MAX);
            return -1;
        }
    } else if (vt->kind == T_WORD) {
        if (!valid_name(vt->s, vt->len, 0)) {
            error_at(P, vt, "invalid value %s%s (a number with a unit, or a "
                     "lower-case keyword)", tok_text(P, vt), for_name(P, name));
            return -1;
        }
        q->kind = SAG_KEYWORD;
        q->keyword = arena_strndup(P->g->arena, vt->s, (size_t)vt->len);
        next(P);
    } else {
        error_at(P, vt, "missing value%s", for_name(P, name));
        return -1;
    }
    return 0;
}

/* param -> NAME '=' ( NUMBER [UNIT] | KEYWORD ) end-of-line */
static void parse_param(Parser *P, SagUnit *u, SagComp comp)
{
    Token nt = P->tok;
    if (!valid_name(nt.s, nt.len, 1)) {
        error_at(P, &nt, "invalid parameter name %s (lower-case words joined by dots)",
                 tok_text(P, &nt));
        skip_line(P);
        return;
    }
    const char *name = arena_strndup(P->g->arena, nt.s, (size_t)nt.len);
    next(P);
    if (P->tok.kind != T_EQ) {
        error_at(P, &P->tok, "expected '=' after '%s', found %s", name, tok_text(P, &P->tok));
        skip_line(P);
        return;
    }
    next(P);
    SagParam *q = arena_alloc(P->g->arena, sizeof *q);
    q->name = name;
    q->line = nt.line;
    q->col = nt.col;
    Token vt;
    if (parse_value(P, q, name, &vt) < 0) {
        skip_line(P);
        return;
    }
    if (P->tok.kind != T_NL && P->tok.kind != T_EOF && P->tok.kind != T_RBRACE) {
        error_at(P, &P->tok, "unexpected %s after the value of '%s' (one parameter a line)",
                 tok_text(P, &P->tok), name);
        skip_line(P);
        return;
    }

    int k = known_index(name);
    if (k >= 0) {
        SagKind want = known[k].kind;
        int ok = q->kind == want || (want == SAG_TIME && q->kind == SAG_CYCLES);
        if (known[k].comp != comp) {
            error_at(P, &nt, "'%s' belongs in the %s component, not in %s", name,
                     comp_names[known[k].comp], comp_names[comp]);
            return;
        }
        if (!ok) {
            error_at(P, &vt, "'%s' takes %s%s, not %s", name, sag_kind_name(want),
                     want == SAG_TIME ? " or cycles" : "",
                     q->kind == SAG_COUNT ? "a number without a unit" : sag_kind_name(q->kind));
            return;
        }
        if (want == SAG_KEYWORD && known[k].words && !word_in(q->keyword, known[k].words)) {
            error_at(P, &vt, "unknown value '%s' for '%s' (one of: %s)", q->keyword, name,
                     known[k].words);
            return;
        }
        const char *why = fraction_range(name, q->value);
        if (why) {
            error_at(P, &vt, "%s", why);
            return;
        }
    }
    const SagParam *first = seen_param(P, u, name, q);
    if (first) {
        error_at(P, &nt, "duplicate parameter '%s' (first given at line %d)", name, first->line);
        return;
    }
    vec_push(P->g->arena, &u->params[comp], q);
}

static SagUnit *parse_unit(Parser *P, SagUnit *parent, SagComp comp);

/* component -> COMP ( 'void' | 'simple' '{' {param} '}' | 'compound' '{' {unit} '}' ) */
static void parse_component(Parser *P, SagUnit *u, SagComp c)
{
    Token ct = P->tok;
    if (u->comp_line[c]) {
        error_at(P, &ct, "component '%s' given twice in unit '%s' (first at line %d)",
                 comp_names[c], u->name, u->comp_line[c]);
        fail(P);
    }
    u->comp_line[c] = ct.line;
    next(P);
    Token ft = P->tok;
    if (is_word(&ft, "void")) {
        u->form[c] = SAG_VOID;
        next(P);
        return;
    }
    int simple = is_word(&ft, "simple");
    if (!simple && !is_word(&ft, "compound")) {
        error_at(P, &ft, "expected 'simple', 'compound' or 'void' after '%s', found %s",
                 comp_names[c], tok_text(P, &ft));
        fail(P);
    }
    u->form[c] = simple ? SAG_SIMPLE : SAG_COMPOUND;
    next(P);
    if (P->tok.kind != T_LBRACE) {
        error_at(P, &P->tok, "expected '{' after '%s %.*s', found %s", comp_names[c],
                 ft.len, ft.s, tok_text(P, &P->tok));
        fail(P);
    }
    next(P);
    for (;;) {
        skip_newlines(P);
        if (P->tok.kind == T_RBRACE) {
            next(P);
            return;
        }
        if (P->tok.kind == T_EOF) {
            error_at(P, &P->tok, "expected '}' (to close '%s %.*s' of unit '%s' at line %d)",
                     comp_names[c], ft.len, ft.s, u->name, ct.line);
            fail(P);
        }
        if (!simple) {
            if (!is_word(&P->tok, "unit")) {
                error_at(P, &P->tok, "expected 'unit' or '}' in a compound component, found %s "
                         "(parameters go in a simple component)", tok_text(P, &P->tok));
                fail(P);
            }
            parse_unit(P, u, c);
        } else if (P->tok.kind == T_WORD) {
            parse_param(P, u, c);
        } else {
            error_at(P, &P->tok, "expected a parameter or '}', found %s", tok_text(P, &P->tok));
            fail(P);
        }
    }
}

static int comp_index(const Token *t)
{
    for (int c = 0; c < SAG_NCOMP; c++)
        if (is_word(t, comp_names[c]))
            return c;
    return -1;
}

/* unit -> 'unit' NAME [ '[' COUNT ']' ] '{' {component} '}' */
static SagUnit *parse_unit(Parser *P, SagUnit *parent, SagComp comp)
{
    Token ut = P->tok;
    next(P);
    Token nt = P->tok;
    if (nt.kind != T_WORD || !valid_name(nt.s, nt.len, 0)) {
        error_at(P, &nt, "expected a unit name (a lower-case word) after 'unit', found %s",
                 tok_text(P, &nt));
        fail(P);
    }
    if (++P->depth > SAG_MAX_DEPTH) {
        error_at(P, &ut, "units nested more than %d deep", SAG_MAX_DEPTH);
        fail(P);
    }
    SagUnit *u = arena_alloc(P->g->arena, sizeof *u);
    u->name = arena_strndup(P->g->arena, nt.s, (size_t)nt.len);
    u->count = 1;
    u->parent = parent;
    u->comp = comp;
    u->line = ut.line;
    if (parent) {
        for (int i = 0; i < parent->children.n; i++) {
            const SagUnit *s = parent->children.v[i];
            if (strcmp(s->name, u->name) == 0) {
                error_at(P, &nt, "unit '%s' defined twice in '%s' (first at line %d)",
                         u->name, parent->name, s->line);
                fail(P);
            }
        }
        vec_push(P->g->arena, &parent->children, u);
    }
    vec_push(P->g->arena, &P->g->units, u);
    next(P);
    if (P->tok.kind == T_LBRACK) {
        next(P);
        Token kt = P->tok;
        if (kt.kind != T_NUM || kt.num < 1 || kt.num > 1e6 || kt.num != (int)kt.num) {
            error_at(P, &kt, "expected a whole number of instances (1 to 1000000), found %s",
                     tok_text(P, &kt));
            fail(P);
        }
        u->count = (int)kt.num;
        next(P);
        if (P->tok.kind != T_RBRACK) {
            error_at(P, &P->tok, "expected ']' after the instance count, found %s",
                     tok_text(P, &P->tok));
            fail(P);
        }
        next(P);
    }
    if (P->tok.kind != T_LBRACE) {
        error_at(P, &P->tok, "expected '{' after 'unit %s', found %s", u->name,
                 tok_text(P, &P->tok));
        fail(P);
    }
    next(P);
    for (;;) {
        skip_newlines(P);
        if (P->tok.kind == T_RBRACE) {
            next(P);
            P->depth--;
            return u;
        }
        if (P->tok.kind == T_EOF) {
            error_at(P, &P->tok, "expected '}' (to close unit '%s' at line %d)", u->name, ut.line);
            fail(P);
        }
        int c = comp_index(&P->tok);
        if (c < 0) {
            error_at(P, &P->tok, "unknown component %s (expected processing, memory, comm "
                     "or io)", tok_text(P, &P->tok));
            fail(P);
        }
        parse_component(P, u, (SagComp)c);
    }
}

/* file -> {NL} unit {NL} EOF; then every cycle count gets its clock. */
static void parse_file(Parser *P)
{
    next(P);
    skip_newlines(P);
    if (!is_word(&P->tok, "unit")) {
        error_at(P, &P->tok, "expected 'unit', found %s (a .sag file holds one root unit)",
                 tok_text(P, &P->tok));
        fail(P);
    }
    P->g->root = parse_unit(P, NULL, SAG_PROCESSING);
    skip_newlines(P);
    if (P->tok.kind == T_RBRACE) {
        error_at(P, &P->tok, "unmatched '}'");
        fail(P);
    }
    if (P->tok.kind != T_EOF) {
        error_at(P, &P->tok, "unexpected %s after the root unit (a .sag file holds one "
                 "root unit)", tok_text(P, &P->tok));
        fail(P);
    }
    for (int i = 0; i < P->g->units.n; i++) {
        const SagUnit *u = P->g->units.v[i];
        for (int c = 0; c < SAG_NCOMP; c++)
            for (int j = 0; j < u->params[c].n; j++) {
                SagParam *q = u->params[c].v[j];
                if (q->kind != SAG_CYCLES)
                    continue;
                q->clock_hz = sag_value(u, "cpu.clock", 0);
                if (q->clock_hz <= 0) {
                    Loc l = {P->file, q->line, q->col, q->line, q->col + (int)strlen(q->name) - 1};
                    diag_error(P->diag, l, "'%s' is given in cycles but unit '%s' has no "
                               "cpu.clock (in it or an enclosing unit)", q->name, u->name);
                }
            }
    }
}

/* f parsed (and freed), its errors reported to d: the graph, or NULL. */
static SagGraph *load_diag(SrcFile *f, Diag *d)
{
    int before = d->nerrors;
    SagGraph *g = xcalloc(1, sizeof *g);
    g->arena = arena_new("sag");
    Parser P = {.file = f, .diag = d, .g = g, .p = f->text, .line = 1, .col = 1};
    if (memchr(f->text, '\0', f->len)) {
        Loc l = {f, 0, 0, 0, 0};
        diag_error(d, l, "a .sag file is text: it holds a NUL byte");
    } else if (!setjmp(P.fail)) {
        parse_file(&P);
    }
    free(P.seen);
    /* (the messages quote the file: written before it is freed) */
    fflush(d->out);
    srcfile_free(f);
    if (d->nerrors > before) {
        sag_free(g);
        return NULL;
    }
    return g;
}

static SagGraph *load(SrcFile *f, FILE *err, int *nerrors)
{
    Diag d;
    diag_init(&d, err ? err : stderr);
    SagGraph *g = load_diag(f, &d);
    diag_finish(&d);
    if (nerrors)
        *nerrors = d.nerrors;
    return g;
}

SagGraph *sag_load_diag(const char *name, const char *text, const char *path, Diag *d)
{
    if (text)
        return load_diag(srcfile_from_bytes(name, text, strlen(text)), d);
    char *msg = NULL;
    SrcFile *f = srcfile_read(path, &msg);
    if (!f) {
        fprintf(d->out, "%s: error: %s\n", path, msg ? msg : "cannot read");
        free(msg);
        d->nerrors++;
        return NULL;
    }
    return load_diag(f, d);
}

SagGraph *sag_load_string(const char *name, const char *text, FILE *err, int *nerrors)
{
    return load(srcfile_from_bytes(name, text, strlen(text)), err, nerrors);
}

SagGraph *sag_load_file(const char *path, FILE *err, int *nerrors)
{
    char *msg = NULL;
    SrcFile *f = srcfile_read(path, &msg);
    if (!f) {
        fprintf(err ? err : stderr, "%s: error: %s\n", path, msg ? msg : "cannot read");
        free(msg);
        if (nerrors)
            *nerrors = 1;
        return NULL;
    }
    return load(f, err, nerrors);
}

void sag_free(SagGraph *g)
{
    if (!g)
        return;
    arena_free(g->arena);
    free(g);
}

/* ---- queries ---- */

const SagUnit *sag_root(const SagGraph *g) { return g->root; }
int sag_nunits(const SagGraph *g) { return g->units.n; }
const SagUnit *sag_unit(const SagGraph *g, int i)
{
    return i >= 0 && i < g->units.n ? g->units.v[i] : NULL;
}
const char *sag_unit_name(const SagUnit *u) { return u->name; }
int sag_unit_count(const SagUnit *u) { return u->count; }
const SagUnit *sag_unit_parent(const SagUnit *u) { return u->parent; }
SagComp sag_unit_comp(const SagUnit *u) { return u->comp; }
int sag_unit_nchildren(const SagUnit *u) { return u->children.n; }
const SagUnit *sag_unit_child(const SagUnit *u, int i)
{
    return i >= 0 && i < u->children.n ? u->children.v[i] : NULL;
}
SagForm sag_form(const SagUnit *u, SagComp c) { return u->form[c]; }
int sag_nparams(const SagUnit *u, SagComp c) { return u->params[c].n; }
const SagParam *sag_param(const SagUnit *u, SagComp c, int i)
{
    return i >= 0 && i < u->params[c].n ? u->params[c].v[i] : NULL;
}

const SagUnit *sag_find_unit(const SagGraph *g, const char *path)
{
    const SagUnit *u = g->root;
    size_t rn = strlen(u->name);
    if (strncmp(path, u->name, rn) == 0 && (path[rn] == '/' || path[rn] == '\0'))
        path += rn;
    while (*path) {
        if (*path == '/') {
            path++;
            continue;
        }
        size_t n = strcspn(path, "/");
        const SagUnit *found = NULL;
        for (int i = 0; i < u->children.n && !found; i++) {
            const SagUnit *c = u->children.v[i];
            if (strlen(c->name) == n && strncmp(c->name, path, n) == 0)
                found = c;
        }
        if (!found)
            return NULL;
        u = found;
        path += n;
    }
    return u;
}

const SagParam *sag_lookup(const SagUnit *u, const char *name)
{
    for (; u; u = u->parent) {
        const SagParam *q = find_own(u, name);
        if (q)
            return q;
    }
    return NULL;
}

double sag_seconds(const SagUnit *u, const char *name, double dflt)
{
    const SagParam *q = sag_lookup(u, name);
    if (!q)
        return dflt;
    if (q->kind == SAG_TIME)
        return q->value;
    if (q->kind == SAG_CYCLES && q->clock_hz > 0)
        return q->value / q->clock_hz;
    return dflt;
}

double sag_value(const SagUnit *u, const char *name, double dflt)
{
    const SagParam *q = sag_lookup(u, name);
    return q && q->kind != SAG_KEYWORD ? q->value : dflt;
}

/* ---- experiments ---- */

/* Section 5.2 of the paper: change the machine, never the program. Each
 * experiment is planned as a list of changes, all checked before any is
 * made, so that a refused experiment leaves the graph as it was. */

static const SagExperiment experiments[] = {
    {"cpu.speed", "K", "processors K times as fast: every cpu.clock times K, "
     "so every cost in cycles over K"},
    {"net.bandwidth", "K", "network bandwidth times K: per-byte times over K "
     "(a rate, e.g. 10MB/s, sets it instead)"},
    {"net.load", "X", "background network load, 0 <= X < 1: per-byte and "
     "per-hop costs over (1 - X)"},
    {"comm.overlap", "F", "fraction 0..1 of communication overlapped with "
     "computation"},
    {NULL, NULL, NULL},
};

const SagExperiment *sag_experiments(void)
{
    return experiments;
}

typedef struct {
    SagUnit *u;                   /* the unit holding it */
    SagParam *q;                  /* NULL: a new parameter, added to u's comm */
    const char *name;             /* for a new one */
    SagKind kind;
    double value;
    const char *keyword;
} Change;

typedef struct {
    SagGraph *g;
    Change *v;
    int n, cap;
    char *err;
    size_t errlen;
    char msg[200];                /* the reader's message on a bad value */
} Plan;

static int refuse(Plan *pl, const char *fmt, ...) HPF_PRINTF(2, 3);
static int refuse(Plan *pl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pl->err, pl->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static Change *plan_add(Plan *pl, SagUnit *u, SagParam *q)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 16;
        pl->v = xrealloc(pl->v, (size_t)pl->cap * sizeof *pl->v);
    }
    Change *c = &pl->v[pl->n++];
    *c = (Change){u, q, q ? q->name : NULL, q ? q->kind : SAG_COUNT, q ? q->value : 0,
                  q ? q->keyword : NULL};
    return c;
}

static void plan_value(Plan *pl, SagUnit *u, SagParam *q, double value)
{
    plan_add(pl, u, q)->value = value;
}

static SagParam *own_param(SagUnit *u, SagComp c, const char *name)
{
    for (int i = 0; i < u->params[c].n; i++) {
        SagParam *q = u->params[c].v[i];
        if (strcmp(q->name, name) == 0)
            return q;
    }
    return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A new clock for the definition Q of cpu.clock in U: the peak rates of
 * every unit that sees this clock follow it, since they are counted in
 * operations a second. Costs in cycles follow by themselves (clock_hz is
 * taken again from the clocks once the plan is made). */
static void plan_clock(Plan *pl, SagUnit *u, SagParam *q, double clock)
{
    double f = clock / q->value;
    for (int i = 0; i < pl->g->units.n && q->value > 0; i++) {
        SagUnit *v = pl->g->units.v[i];
        if (sag_lookup(v, "cpu.clock") != q)
            continue;
        for (int j = 0; j < v->params[SAG_PROCESSING].n; j++) {
            SagParam *p = v->params[SAG_PROCESSING].v[j];
            if (strncmp(p->name, "cpu.peak.", 9) == 0 && p->kind == SAG_COUNT)
                plan_value(pl, v, p, p->value * f);
        }
    }
    plan_value(pl, u, q, clock);
}

/* Bandwidth times F in the comm component of U: per-byte times over F,
 * rates times F. Start-ups and per-hop latencies are not bandwidth. */
static int plan_comm_scale(Plan *pl, SagUnit *u, double f)
{
    int n = 0;
    for (int j = 0; j < u->params[SAG_COMM].n; j++) {
        SagParam *p = u->params[SAG_COMM].v[j];
        if (p->kind == SAG_RATE)
            plan_value(pl, u, p, p->value * f);
        else if ((p->kind == SAG_TIME || p->kind == SAG_CYCLES) &&
                 (strcmp(p->name, "per_byte") == 0 || ends_with(p->name, ".per_byte")))
            plan_value(pl, u, p, p->value / f);
        else
            continue;
        n++;
    }
    return n;
}

/* The units that hold a network: a simple comm component with parameters.
 * net.load and comm.overlap are set (or added) in each, so that every unit
 * below one inherits the setting with the network it uses. */
static int plan_comm_setting(Plan *pl, const char *name, double value)
{
    int n = 0;
    for (int i = 0; i < pl->g->units.n; i++) {
        SagUnit *u = pl->g->units.v[i];
        SagParam *q = NULL;
        for (int c = 0; c < SAG_NCOMP && !q; c++)
            q = own_param(u, (SagComp)c, name);
        if (q) {
            Change *ch = plan_add(pl, u, q);
            ch->kind = SAG_COUNT;
            ch->value = value;
            ch->keyword = NULL;
        } else if (u->form[SAG_COMM] == SAG_SIMPLE && u->params[SAG_COMM].n > 0) {
            Change *ch = plan_add(pl, u, NULL);
            ch->name = name;
            ch->value = value;
        } else {
            continue;
        }
        n++;
    }
    return n;
}

/* Why a planned value is out of range for its kind, or NULL. */
static const char *range_error(Plan *pl, const Change *c)
{
    const char *name = c->q ? c->q->name : c->name;
    if (c->kind == SAG_KEYWORD)
        return NULL;
    if (!isfinite(c->value))
        return arena_printf(pl->g->arena, "'%s' must be a finite number", name);
    if (c->value < 0)
        return arena_printf(pl->g->arena, "'%s' cannot be negative", name);
    if (c->value == 0 && zero_refused(name, c->kind))
        return arena_printf(pl->g->arena, "'%s' takes %s above 0", name, sag_kind_name(c->kind));
    return fraction_range(name, c->value);
}

/* Checks every change, then makes them all; cycle counts then take the
 * clock they see again, as the reader gives it to them. */
static int plan_apply(Plan *pl)
{
    for (int i = 0; i < pl->n; i++) {
        const char *why = range_error(pl, &pl->v[i]);
        if (why)
            return refuse(pl, "%s", why);
        if (pl->v[i].kind == SAG_CYCLES && sag_value(pl->v[i].u, "cpu.clock", 0) <= 0)
            return refuse(pl, "'%s' is given in cycles but unit '%s' has no cpu.clock "
                          "(in it or an enclosing unit)", pl->v[i].q->name, pl->v[i].u->name);
    }
    for (int i = 0; i < pl->n; i++) {
        Change *c = &pl->v[i];
        SagParam *q = c->q;
        if (!q) {
            q = arena_alloc(pl->g->arena, sizeof *q);
            q->name = arena_strdup(pl->g->arena, c->name);
            vec_push(pl->g->arena, &c->u->params[SAG_COMM], q);
        }
        q->kind = c->kind;
        q->value = c->value + 0.0;            /* never -0 */
        q->keyword = c->keyword;
        q->clock_hz = 0;
    }
    for (int i = 0; i < pl->g->units.n; i++) {
        const SagUnit *u = pl->g->units.v[i];
        for (int c = 0; c < SAG_NCOMP; c++)
            for (int j = 0; j < u->params[c].n; j++) {
                SagParam *q = u->params[c].v[j];
                if (q->kind == SAG_CYCLES)
                    q->clock_hz = sag_value(u, "cpu.clock", 0);
            }
    }
    return 0;
}

/* Edit distance of two short names, for "did you mean". */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* The experiment or parameter of the graph nearest to NAME, within three
 * edits and fewer edits than NAME has characters; NULL if none. */
static const char *nearest_name(const SagGraph *g, const char *name)
{
    const char *best = NULL;
    int bd = 4;
    if ((int)strlen(name) < bd)
        bd = (int)strlen(name);
    for (const SagExperiment *e = experiments; e->name; e++) {
        int d = edit_distance(name, e->name);
        if (d < bd) {
            bd = d;
            best = e->name;
        }
    }
    for (int i = 0; i < g->units.n; i++) {
        const SagUnit *u = g->units.v[i];
        for (int c = 0; c < SAG_NCOMP; c++)
            for (int j = 0; j < u->params[c].n; j++) {
                const SagParam *q = u->params[c].v[j];
                int d = edit_distance(name, q->name);
                if (d < bd) {
                    bd = d;
                    best = q->name;
                }
            }
    }
    return best;
}

/* VALUE read as the value of a parameter in a .sag file, into Q. */
static int read_value(Plan *pl, const char *name, const char *value, SagParam *q)
{
    SrcFile *f = srcfile_from_bytes(name, value, strlen(value));
    Parser P = {.file = f, .g = pl->g, .p = f->text, .line = 1, .col = 1,
                .msg = pl->msg, .msglen = sizeof pl->msg};
    volatile int rc = -1;
    if (!setjmp(P.fail)) {
        next(&P);
        Token vt;
        if (parse_value(&P, q, NULL, &vt) == 0) {
            if (P.tok.kind != T_EOF)
                error_at(&P, &P.tok, "unexpected %s after the value", tok_text(&P, &P.tok));
            else
                rc = 0;
        }
    }
    srcfile_free(f);
    if (rc < 0)
        return refuse(pl, "bad value '%.60s' for '%s': %s", value, name, pl->msg);
    return 0;
}

static const char *got_name(SagKind k)
{
    return k == SAG_COUNT ? "a number without a unit" : sag_kind_name(k);
}

/* Can a parameter of kind HAVE take a value of kind GOT? A time is a time
 * whether written in seconds or in cycles. */
static int kind_fits(SagKind have, SagKind got)
{
    if (have == SAG_CYCLES)
        have = SAG_TIME;
    if (got == SAG_CYCLES)
        got = SAG_TIME;
    return have == got;
}

/* NAME=VALUE (or NAME*=K when SCALE) on the parameter NAME, in the unit at
 * PATH or, when PATH is NULL, wherever the graph defines it. */
static int set_param(Plan *pl, const char *path, const char *name, const SagParam *v, int scale)
{
    SagGraph *g = pl->g;
    const SagUnit *only = NULL;
    if (path) {
        only = sag_find_unit(g, path);
        if (!only)
            return refuse(pl, "no unit '%s' in the machine (for '%s/%s')", path, path, name);
    }
    int n = 0;
    for (int i = 0; i < g->units.n; i++) {
        SagUnit *u = g->units.v[i];
        if (only && u != only)
            continue;
        for (int c = 0; c < SAG_NCOMP; c++) {
            SagParam *q = own_param(u, (SagComp)c, name);
            if (!q)
                continue;
            n++;
            if (scale && q->kind == SAG_KEYWORD)
                return refuse(pl, "'%s' is a keyword; only numbers scale", name);
            int k = known_index(name);
            if (!scale && !kind_fits(q->kind, v->kind)) {
                if (q->kind == SAG_KEYWORD && k >= 0 && known[k].words)
                    return refuse(pl, "'%s' takes a keyword (one of: %s), not %s", name,
                                  known[k].words, got_name(v->kind));
                return refuse(pl, "'%s' takes %s, not %s", name,
                              q->kind == SAG_TIME || q->kind == SAG_CYCLES ? "a time or cycles"
                                                                           : sag_kind_name(q->kind),
                              got_name(v->kind));
            }
            if (!scale && v->kind == SAG_KEYWORD && k >= 0 && known[k].words &&
                !word_in(v->keyword, known[k].words))
                return refuse(pl, "unknown value '%s' for '%s' (one of: %s)", v->keyword, name,
                              known[k].words);
            double value = scale ? q->value * v->value : v->value;
            /* the clock and the bandwidth are what other values are stated
               against: changing them is cpu.speed or net.bandwidth here */
            if (strcmp(name, "cpu.clock") == 0 && q->kind == SAG_FREQ) {
                plan_clock(pl, u, q, value);
                continue;
            }
            if (strcmp(name, "net.bandwidth") == 0 && q->kind == SAG_RATE && c == SAG_COMM &&
                q->value > 0)
                plan_comm_scale(pl, u, value / q->value);
            Change *ch = plan_add(pl, u, q);
            ch->value = value;
            if (!scale) {
                ch->kind = v->kind;
                ch->keyword = v->keyword;
            }
        }
    }
    if (n > 0)
        return 0;
    if (only) {
        const SagParam *seen = sag_lookup(only, name);
        if (seen) {
            const SagUnit *from = only->parent;
            while (from && !find_own(from, name))
                from = from->parent;
            return refuse(pl, "unit '%s' does not define '%s'; it inherits it from '%s'",
                          path, name, from ? from->name : "?");
        }
        return refuse(pl, "unit '%s' does not define '%s'", path, name);
    }
    const char *near = nearest_name(g, name);
    if (near)
        return refuse(pl, "unknown SAG parameter '%s'; did you mean '%s'?", name, near);
    return refuse(pl, "unknown SAG parameter '%s' (not an experiment, and not in the machine)",
                  name);
}

static const SagExperiment *experiment_named(const char *name)
{
    for (const SagExperiment *e = experiments; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

/* An experiment's factor or fraction: a plain number. */
static int plain_number(Plan *pl, const char *name, const SagParam *v, const char *what)
{
    if (v->kind != SAG_COUNT)
        return refuse(pl, "'%s' takes %s (a number without a unit), not %s", name, what,
                      sag_kind_name(v->kind));
    if (!isfinite(v->value))
        return refuse(pl, "'%s' takes a finite number", name);
    return 0;
}

static int experiment(Plan *pl, const char *path, const char *name, const SagParam *v,
                      int scale)
{
    SagGraph *g = pl->g;
    int net = strcmp(name, "net.bandwidth") == 0;
    if (net || strcmp(name, "cpu.speed") == 0) {
        /* net.bandwidth is a parameter too: a rate sets it, a plain number
           (or *=) is the factor */
        if (net && (v->kind != SAG_COUNT || path))
            return set_param(pl, path, name, v, scale);
        if (path)
            return refuse(pl, "'%s' applies to the whole machine; write it without a unit "
                          "path", name);
        if (plain_number(pl, name, v, "a factor") < 0)
            return -1;
        if (!(v->value > 0))
            return refuse(pl, "'%s' takes a factor above 0", name);
        int n = 0;
        for (int i = 0; i < g->units.n; i++) {
            SagUnit *u = g->units.v[i];
            if (net) {
                n += plan_comm_scale(pl, u, v->value);
            } else {
                SagParam *q = own_param(u, SAG_PROCESSING, "cpu.clock");
                if (q && q->kind == SAG_FREQ) {
                    plan_clock(pl, u, q, q->value * v->value);
                    n++;
                }
            }
        }
        if (n == 0)
            return refuse(pl, net
                          ? "'net.bandwidth': the machine gives no per-byte time or rate in a "
                            "comm component to scale"
                          : "'cpu.speed': the machine gives no cpu.clock to scale");
        return 0;
    }
    /* net.load and comm.overlap: set as fractions; once there, they are
       parameters like any other for a unit path or a scale */
    if (path || scale) {
        if (!path && scale) {
            int defined = 0;
            for (int i = 0; i < g->units.n && !defined; i++)
                defined = find_own(g->units.v[i], name) != NULL;
            if (!defined)
                return refuse(pl, "'%s' is not in the machine to scale; set it with %s=%s",
                              name, name, experiment_named(name)->value);
        }
        return set_param(pl, path, name, v, scale);
    }
    if (plain_number(pl, name, v, "a fraction") < 0)
        return -1;
    Change probe = {.name = name, .kind = SAG_COUNT, .value = v->value};
    const char *why = range_error(pl, &probe);
    if (why)
        return refuse(pl, "%s", why);
    if (plan_comm_setting(pl, name, v->value) == 0)
        return refuse(pl, "'%s': the machine has no comm component with parameters (no "
                      "network) to set it in", name);
    return 0;
}

/* The N characters at S without the white space at either end, in the
 * graph's arena. */
static char *trimmed(SagGraph *g, const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return arena_strndup(g->arena, s, n);
}

int sag_experiment(SagGraph *g, const char *assignment, char *err, size_t errlen)
{
    char spare[1];
    Plan pl = {.g = g, .err = err && errlen ? err : spare, .errlen = err && errlen ? errlen : 1};
    pl.err[0] = '\0';
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return refuse(&pl, "expected NAME=VALUE or NAME*=FACTOR, not '%.60s'", assignment);
    int scale = eq > assignment && eq[-1] == '*';
    char *full = trimmed(g, assignment, (size_t)(eq - scale - assignment));
    char *value = trimmed(g, eq + 1, strlen(eq + 1));
    if (!*full)
        return refuse(&pl, "missing parameter name before '%s='", scale ? "*" : "");
    char *name = strrchr(full, '/');
    const char *path = NULL;
    if (name) {
        *name++ = '\0';
        path = full;
    } else {
        name = full;
    }
    if (!valid_name(name, (int)strlen(name), 1))
        return refuse(&pl, "invalid parameter name '%.60s' (lower-case words joined by dots)",
                      name);
    if (!*value)
        return refuse(&pl, "missing value for '%s'", name);

    SagParam v = {0};
    if (read_value(&pl, name, value, &v) < 0)
        return -1;
    if (scale) {
        if (v.kind != SAG_COUNT)
            return refuse(&pl, "the factor of '%s*=' is a number without a unit, not %s", name,
                          sag_kind_name(v.kind));
        if (!(v.value > 0) || !isfinite(v.value))
            return refuse(&pl, "the factor of '%s*=' must be above 0", name);
    }
    int rc = experiment_named(name) ? experiment(&pl, path, name, &v, scale)
                                    : set_param(&pl, path, name, &v, scale);
    if (rc == 0)
        rc = plan_apply(&pl);
    free(pl.v);
    return rc;
}

/* ---- writer ---- */

/* The shortest %g form that reads back to the same double. */
static const char *shortest(char buf[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static void write_unit(FILE *out, const SagUnit *u, int depth)
{
    fprintf(out, "%*sunit %s", depth * 4, "", u->name);
    if (u->count != 1)
        fprintf(out, " [%d]", u->count);
    fputs(" {\n", out);
    for (int c = 0; c < SAG_NCOMP; c++) {
        fprintf(out, "%*s%s ", depth * 4 + 4, "", comp_names[c]);
        if (u->form[c] == SAG_VOID) {
            fputs("void\n", out);
            continue;
        }
        fputs(u->form[c] == SAG_SIMPLE ? "simple {\n" : "compound {\n", out);
        for (int i = 0; i < u->params[c].n; i++) {
            const SagParam *q = u->params[c].v[i];
            char buf[32];
            fprintf(out, "%*s%s = ", depth * 4 + 8, "", q->name);
            static const char *const base[] = {"", " s", " cycles", " Hz", " B", " B/s", ""};
            if (q->kind == SAG_KEYWORD)
                fprintf(out, "%s\n", q->keyword);
            else     /* finite: the reader and --set refuse any other value */
                fprintf(out, "%s%s\n", shortest(buf, q->value), base[q->kind]);
        }
        for (int i = 0; i < u->children.n; i++) {
            const SagUnit *ch = u->children.v[i];
            if (ch->comp == (SagComp)c)
                write_unit(out, ch, depth + 2);
        }
        fprintf(out, "%*s}\n", depth * 4 + 4, "");
    }
    fprintf(out, "%*s}\n", depth * 4, "");
}

void sag_write(FILE *out, const SagGraph *g)
{
    write_unit(out, g->root, 0);
}

/* ---- built-in descriptions ---- */

extern const char sag_ipsc860_text[];   /* interp/sag_builtin.c, made from ipsc860.sag */

const char *sag_builtin(const char *name)
{
    if (strcmp(name, "ipsc860") == 0)
        return sag_ipsc860_text;
    return NULL;
}
