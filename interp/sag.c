/* sag.c - the reader of .sag machine descriptions (doc/sag.md): a small
 * scanner and a recursive-descent parser building the unit tree in one arena,
 * with GCC-style diagnostics, and a writer that prints it back in base units. */
#include <config.h>

#include <ctype.h>
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
 * ending in '.' covers every name with that prefix. Other names are
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
    {"op.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"loop.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"cond.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"call.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"lib.", SAG_PROCESSING, TIME_OR_CYCLES, NULL},
    {"dcache.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"dcache.block", SAG_MEMORY, SAG_SIZE, NULL},
    {"dcache.assoc", SAG_MEMORY, SAG_COUNT, NULL},
    {"dcache.replacement", SAG_MEMORY, SAG_KEYWORD, "lru fifo random"},
    {"dcache.write", SAG_MEMORY, SAG_KEYWORD, "write_back write_through"},
    {"icache.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"icache.block", SAG_MEMORY, SAG_SIZE, NULL},
    {"icache.assoc", SAG_MEMORY, SAG_COUNT, NULL},
    {"icache.replacement", SAG_MEMORY, SAG_KEYWORD, "lru fifo random"},
    {"mem.size", SAG_MEMORY, SAG_SIZE, NULL},
    {"mem.page", SAG_MEMORY, SAG_SIZE, NULL},
    {"mem.fetch.", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.store.", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.access", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.tlb_miss", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"mem.rw_switch", SAG_MEMORY, TIME_OR_CYCLES, NULL},
    {"net.topology", SAG_COMM, SAG_KEYWORD,
     "hypercube mesh torus ring bus crossbar point_to_point"},
    {"net.routing", SAG_COMM, SAG_KEYWORD,
     "ecube dimension_order circuit store_forward wormhole direct"},
    {"net.dimension", SAG_COMM, SAG_COUNT, NULL},
    {"net.bandwidth", SAG_COMM, SAG_RATE, NULL},
    {"net.short_max", SAG_COMM, SAG_SIZE, NULL},
    {"net.static.buffer", SAG_COMM, SAG_SIZE, NULL},
    {"net.dynamic.buffer", SAG_COMM, SAG_SIZE, NULL},
    {"net.static.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"net.dynamic.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"sync.", SAG_COMM, TIME_OR_CYCLES, NULL},
    {"coll.broadcast", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear"},
    {"coll.multicast", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear"},
    {"coll.reduction", SAG_COMM, SAG_KEYWORD,
     "tree recursive_doubling linear"},
    {"coll.shift", SAG_COMM, SAG_KEYWORD, "nearest_neighbour pairwise linear"},
    {"io.startup", SAG_IO, TIME_OR_CYCLES, NULL},
    {"io.per_byte", SAG_IO, TIME_OR_CYCLES, NULL},
    {"io.bandwidth", SAG_IO, SAG_RATE, NULL},
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

static int known_index(const char *name)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i].name);
        if (known[i].name[n - 1] == '.' ? strncmp(name, known[i].name, n) == 0
                                        : strcmp(name, known[i].name) == 0)
            return (int)i;
    }
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
} Parser;

static Loc tok_loc(const Parser *P, const Token *t)
{
    Loc l = {P->file, t->line, t->col, t->line, t->col + (t->len > 1 ? t->len - 1 : 0)};
    return l;
}

static void error_at(Parser *P, const Token *t, const char *fmt, ...) HPF_PRINTF(3, 4);
static void error_at(Parser *P, const Token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(P->diag, DIAG_ERROR, tok_loc(P, t), fmt, ap);
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
                char buf[64];
                size_t n = (size_t)(e - s) < sizeof buf - 1 ? (size_t)(e - s) : sizeof buf - 1;
                memcpy(buf, s, n);
                buf[n] = '\0';
                t->kind = T_NUM;
                t->num = strtod(buf, NULL);
            } else if (isalpha((unsigned char)*s) || *s == '_') {
                while (is_word_char((unsigned char)*e))
                    e++;
                t->kind = T_WORD;
            } else {
                Loc l = {P->file, P->line, P->col, P->line, P->col};
                diag_error(P->diag, l, "stray character '%c' (0x%02x)",
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
    Token vt = P->tok;
    if (vt.kind == T_NUM) {
        q->value = vt.num;
        q->kind = SAG_COUNT;
        if (vt.num < 0) {
            error_at(P, &vt, "negative value for '%s'", name);
            skip_line(P);
            return;
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
                skip_line(P);
                return;
            }
            q->kind = units[i].kind;
            q->value *= units[i].scale;
            vt.len = (int)(P->tok.s + P->tok.len - vt.s);   /* the value with its unit */
            next(P);
        }
    } else if (vt.kind == T_WORD) {
        if (!valid_name(vt.s, vt.len, 0)) {
            error_at(P, &vt, "invalid value %s for '%s' (a number with a unit, or a "
                     "lower-case keyword)", tok_text(P, &vt), name);
            skip_line(P);
            return;
        }
        q->kind = SAG_KEYWORD;
        q->keyword = arena_strndup(P->g->arena, vt.s, (size_t)vt.len);
        next(P);
    } else {
        error_at(P, &vt, "missing value for '%s'", name);
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
    }
    const SagParam *first = find_own(u, name);
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

static SagGraph *load(SrcFile *f, FILE *err, int *nerrors)
{
    Diag d;
    diag_init(&d, err ? err : stderr);
    SagGraph *g = xcalloc(1, sizeof *g);
    g->arena = arena_new("sag");
    Parser P = {.file = f, .diag = &d, .g = g, .p = f->text, .line = 1, .col = 1};
    if (memchr(f->text, '\0', f->len)) {
        Loc l = {f, 0, 0, 0, 0};
        diag_error(&d, l, "a .sag file is text: it holds a NUL byte");
    } else if (!setjmp(P.fail)) {
        parse_file(&P);
    }
    diag_finish(&d);
    if (nerrors)
        *nerrors = d.nerrors;
    srcfile_free(f);
    if (d.nerrors) {
        sag_free(g);
        return NULL;
    }
    return g;
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
            else
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
