/* interact.c - hpfpredict -i: the report and its queries asked for at a
 * prompt, one after the other, and new predictions for another processor
 * count or other -D values. The program is compiled once: a new processor
 * count or a new value of a -D variable runs the functional interpreter
 * and the engine again on the same AAG (a variable named for the first
 * time, or no longer named, makes a new AAG from the same IR, since held
 * variables are not critical); only a PARAMETER, which the front end
 * substitutes, needs a new compilation, from the source kept in memory.
 * Line editing and history come from libedit or GNU readline when
 * configure found one and standard input is a terminal; otherwise lines
 * are read plainly, with no prompt when standard input is not a terminal,
 * so that a script's output holds the answers only. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(HAVE_LIBEDIT)
#include <editline/readline.h>
#elif defined(HAVE_READLINE)
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "interact.h"

static const char prompt[] = "hpfpredict> ";

/* What a prediction is made with: the processor count and the -D values
 * (names and values the session's own; `used` marks a PARAMETER). */
typedef struct {
    int np;
    Define *defs;
    int ndefs;
} Settings;

typedef struct {
    const Options *o;
    const SrcFile *f;
    const SagGraph *sag;
    const char *sag_name;
    int format;                /* FMT_* of the answers */
    Settings cur;              /* for the next prediction */
    Settings built;            /* those p was compiled and abstracted with */
    Settings last;             /* those of the prediction the answers give */
    Program p;
    int have;                  /* a prediction was made: r and p.g's metrics */
    EngineResult r;
} Session;

/* ---- settings ---- */

static void settings_free(Settings *s)
{
    for (int i = 0; i < s->ndefs; i++) {
        free((char *)s->defs[i].name);
        free((char *)s->defs[i].value);
    }
    free(s->defs);
    *s = (Settings){0};
}

static void settings_copy(Settings *to, const Settings *from)
{
    settings_free(to);
    to->np = from->np;
    to->ndefs = from->ndefs;
    to->defs = xcalloc((size_t)from->ndefs + 1, sizeof *to->defs);
    for (int i = 0; i < from->ndefs; i++)
        to->defs[i] = (Define){xstrdup(from->defs[i].name), xstrdup(from->defs[i].value),
                               from->defs[i].used};
}

static Define *settings_find(const Settings *s, const char *name)
{
    for (int i = 0; i < s->ndefs; i++)
        if (!strcmp(s->defs[i].name, name))
            return &s->defs[i];
    return NULL;
}

/* The value of a PARAMETER named name in b, or NULL: one that is not there
 * (or not a PARAMETER there) compares as NULL. */
static const char *param_value(const Settings *b, const char *name)
{
    const Define *d = settings_find(b, name);
    return d && d->used ? d->value : NULL;
}

/* ---- the program's names ---- */

/* The kind of NAME in the program's units: SYM_PARAMETER when one of them
 * declares it so (the front end substitutes a -D value there, whatever the
 * other units do), else SYM_VARIABLE when one has such a variable, else -1. */
static int name_kind(const SpProgram *sp, const char *name)
{
    int kind = -1;
    for (int i = 0; i < sp->units.n; i++) {
        const SpUnit *u = sp->units.v[i];
        const Symbol *y = u->scope ? scope_lookup_local(u->scope, name) : NULL;
        if (y && y->kind == SYM_PARAMETER)
            return SYM_PARAMETER;
        if (y && y->kind == SYM_VARIABLE)
            kind = SYM_VARIABLE;
    }
    return kind;
}

/* ---- predictions ---- */

/* What a change of settings needs, the least first. */
enum { NEED_INTERPRET, NEED_ABSTRACT, NEED_COMPILE };

static int need_of(const Session *s, const char **param)
{
    const Settings *a = &s->cur, *b = &s->built;
    /* a PARAMETER's value changed, or one was set or unset */
    for (int i = 0; i < a->ndefs; i++)
        if (a->defs[i].used) {
            const char *v = param_value(b, a->defs[i].name);
            if (!v || strcmp(v, a->defs[i].value)) {
                *param = a->defs[i].name;
                return NEED_COMPILE;
            }
        }
    for (int i = 0; i < b->ndefs; i++)
        if (b->defs[i].used && !param_value(a, b->defs[i].name)) {
            *param = b->defs[i].name;
            return NEED_COMPILE;
        }
    /* the held variables changed (not their values) */
    for (int i = 0; i < a->ndefs; i++)
        if (!a->defs[i].used) {
            const Define *d = settings_find(b, a->defs[i].name);
            if (!d || d->used)
                return NEED_ABSTRACT;
        }
    for (int i = 0; i < b->ndefs; i++)
        if (!b->defs[i].used && !settings_find(a, b->defs[i].name))
            return NEED_ABSTRACT;
    return NEED_INTERPRET;
}

/* The metrics the engine writes into an AAG, kept to be put back when an
 * interpretation on the same AAG fails. */
typedef struct {
    double m_sum[4], m_max, m_min, execs, xmost;
} Metrics;

static Metrics *metrics_save(const Aag *g)
{
    Metrics *m = xcalloc((size_t)g->naau + 1, sizeof *m);
    for (int i = 0; i < g->naau; i++) {
        const Aau *a = g->aau[i];
        memcpy(m[i].m_sum, a->m_sum, sizeof m[i].m_sum);
        m[i].m_max = a->m_max;
        m[i].m_min = a->m_min;
        m[i].execs = a->execs;
        m[i].xmost = a->xmost;
    }
    return m;
}

static void metrics_restore(Aag *g, const Metrics *m)
{
    for (int i = 0; i < g->naau; i++) {
        Aau *a = g->aau[i];
        memcpy(a->m_sum, m[i].m_sum, sizeof a->m_sum);
        a->m_max = m[i].m_max;
        a->m_min = m[i].m_min;
        a->execs = m[i].execs;
        a->xmost = m[i].xmost;
    }
}

static void diag_end(Diag *d)
{
    /* JSON diagnostics: one array per command, none when there were none */
    if (d->format != DIAG_JSON || d->json_items)
        diag_finish(d);
}

/* Predicts with s->cur, compiling or abstracting again only when the
 * settings need it, and says so in a line unless quiet. On success the
 * prediction replaces the last one; on failure (the reasons are on stderr)
 * the last one stays, and so do its settings; before any prediction
 * succeeded the settings stay as they are, so that missing values can be
 * given one at a time. Returns 0 or 1. */
static int update(Session *s, int quiet)
{
    const Options *o = s->o;
    Diag d;
    diag_init(&d, stderr);
    d.format = o->diag_format;
    const char *param = NULL;
    int need = need_of(s, &param);
    char *recompiled = NULL;
    if (need == NEED_COMPILE) {
        recompiled = xmalloc(strlen(param) + 100);
        sprintf(recompiled, "recompiled: '%s' is a PARAMETER (the front end substitutes its "
                "value)", param);
    }
    Program np = {0};
    Aag *g = s->p.g;
    Metrics *saved = NULL;
    int status = 1;
    if (need == NEED_COMPILE) {
        if (program_compile(o, s->f, s->cur.defs, s->cur.ndefs, &np, &d))
            goto fail;
        np.g = g = program_abstract(o, &np, s->cur.defs, s->cur.ndefs);
    } else if (need == NEED_ABSTRACT) {
        g = program_abstract(o, &s->p, s->cur.defs, s->cur.ndefs);
    } else if (s->have)
        saved = metrics_save(g);
    Trace trace, *t = NULL;
    if (o->trace) {
        trace_init(&trace, s->cur.np, o->path, s->sag_name);
        t = &trace;
    }
    EngineResult r;
    const SpProgram *sp = need == NEED_COMPILE ? np.sp : s->p.sp;
    status = program_interpret(o, s->f, s->sag, sp, g, s->cur.defs, s->cur.ndefs, s->cur.np, 0,
                               t, &r, &d);
    if (status == 0) {
        if (need == NEED_COMPILE) {
            program_free(&s->p);
            s->p = np;
        } else if (need == NEED_ABSTRACT) {
            aag_free(s->p.g);
            s->p.g = g;
        }
        settings_copy(&s->built, &s->cur);
        settings_copy(&s->last, &s->cur);
        s->r = r;
        s->have = 1;
        if (t)
            trace_save(o, t, "");   /* the prediction stands without its trace */
    } else {
        if (need == NEED_COMPILE)
            program_free(&np);
        else if (need == NEED_ABSTRACT)
            aag_free(g);
        else if (saved)
            metrics_restore(g, saved);
    }
    if (t)
        trace_free(t);
    free(saved);
fail:
    diag_end(&d);
    fflush(stderr);
    if (status == 0) {
        if (recompiled && !quiet)
            puts(recompiled);
        if (!quiet)
            printf("%d processor%s: predicted time %.6f s\n", s->r.np, s->r.np == 1 ? "" : "s",
                   s->r.total);
        free(recompiled);
        return 0;
    }
    free(recompiled);
    if (s->have) {
        settings_copy(&s->cur, &s->last);
        fprintf(stderr, "error: no new prediction; the answers stay those of %d processor%s "
                "(predicted time %.6f s)\n", s->r.np, s->r.np == 1 ? "" : "s", s->r.total);
    } else {
        /* a failed compilation may have marked PARAMETERs halfway */
        for (int i = 0; i < s->cur.ndefs; i++)
            s->cur.defs[i].used = name_kind(s->p.sp, s->cur.defs[i].name) == SYM_PARAMETER;
        fputs("error: no prediction yet; give the missing values with 'set NAME=VALUE'\n",
              stderr);
    }
    return 1;
}

/* ---- commands ---- */

static int cmd_error(const char *fmt, const char *arg)
{
    fflush(stdout);
    fputs("error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 1;
}

static void help(void)
{
    fputs("summary              the report: the predicted time, its split, the AAU tree\n"
          "profile              the whole program's profile (as --profile)\n"
          "aau ID               the profile of AAU ID and of its sub-AAG (as --aau)\n"
          "line N               the metrics of source line N (as --line)\n"
          "lines A-B            the metrics of lines A to B (as --lines)\n"
          "annotate             the source listing with the metrics of each line\n"
          "list                 the AAU tree: ids, classes, lines\n"
          "aag, saag            the AAG (as --dump-aag), the SAAG (as --dump-saag)\n"
          "format text|json|csv the form of the answers that follow\n"
          "np N                 predict for N processors (no new compilation)\n"
          "set NAME=VALUE...    -D values: a variable's without a new compilation, a\n"
          "                     PARAMETER's with one\n"
          "unset NAME...        drop -D values\n"
          "show                 the processor count, the -D values, the machine\n"
          "help                 this list\n"
          "quit, exit           leave (so does the end of the input)\n", stdout);
}

/* The answer to a query (q NULL: the report) in the session's form. */
static int answer(Session *s, const ReportQuery *q)
{
    if (!s->have)
        return cmd_error("%s", "no prediction yet; give the missing values with "
                         "'set NAME=VALUE'");
    Report rp = {s->o->path, s->sag_name, s->p.g, &s->r, s->f, q, NULL, NULL, NULL};
    if (s->format == FMT_JSON) {
        report_json(stdout, &rp, 0);
        putchar('\n');
    } else if (s->format == FMT_CSV) {
        report_csv_header(stdout);
        report_csv(stdout, &rp);
    } else if (q && report_has_query(q))
        report_query_text(stdout, &rp);
    else
        report_text(stdout, &rp);
    return 0;
}

static void list_tree(const Aau *a, int depth);

static void list_list(const PtrVec *l, int depth)
{
    for (int i = 0; i < l->n; i++)
        list_tree(l->v[i], depth);
}

/* The AAU tree in the report's order: id, class, lines and label. */
static void list_tree(const Aau *a, int depth)
{
    char lines[32];
    if (!a->line)
        snprintf(lines, sizeof lines, "-");
    else if (a->line_end > a->line)
        snprintf(lines, sizeof lines, "%d-%d", a->line, a->line_end);
    else
        snprintf(lines, sizeof lines, "%d", a->line);
    printf("%*s#%d %s %s%s%s\n", 2 * depth, "", a->id, aau_class_name[a->cls], lines,
           a->label ? "  " : "", a->label ? a->label : "");
    list_list(&a->kids, depth + 1);
    for (int b = 0; b < a->nbranch; b++) {
        char *c = a->bcond[b] ? unparse_expr_string(a->bcond[b], NULL, NULL) : NULL;
        printf("%*s%s%s\n", 2 * depth + 2, "", c ? "branch " : "else", c ? c : "");
        free(c);
        if (a->bpre)
            list_list(&a->bpre[b], depth + 2);
        list_list(&a->bbody[b], depth + 2);
    }
}

static void show(const Session *s)
{
    printf("program    %s\n", s->o->path);
    printf("machine    %s\n", s->sag_name);
    printf("np         %d\n", s->cur.np);
    if (!s->cur.ndefs)
        puts("-D         none");
    for (int i = 0; i < s->cur.ndefs; i++) {
        const Define *d = &s->cur.defs[i];
        printf("%-10s %s=%s  (%s)\n", i ? "" : "-D", d->name, d->value,
               d->used ? "PARAMETER" : "variable, held at this value");
    }
    static const char *const fmt_name[] = {"text", "json", "csv"};
    printf("format     %s\n", fmt_name[s->format]);
    if (s->have)
        printf("prediction %.6f s on %d processor%s\n", s->r.total, s->r.np,
               s->r.np == 1 ? "" : "s");
    else
        puts("prediction none yet (values are missing)");
}

/* A -D name as the front end writes it: lower case. */
static int define_name(char *name)
{
    if (!*name)
        return 0;
    for (char *c = name; *c; c++) {
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '_')
            return 0;
    }
    return name[0] >= 'a' && name[0] <= 'z';
}

static int cmd_set(Session *s, char **arg, int n)
{
    if (!n)
        return cmd_error("%s", "set expects NAME=VALUE");
    /* every assignment checked before any is made */
    for (int i = 0; i < n; i++) {
        char *eq = strchr(arg[i], '=');
        if (!eq || !eq[1])
            return cmd_error("set expects NAME=VALUE, not '%s'", arg[i]);
        *eq = '\0';
        if (!define_name(arg[i])) {
            *eq = '=';
            return cmd_error("set expects NAME=VALUE with a Fortran name, not '%s'", arg[i]);
        }
        if (name_kind(s->p.sp, arg[i]) < 0) {
            cmd_error("'%s' is neither a PARAMETER nor a variable of the program", arg[i]);
            *eq = '=';
            return 1;
        }
        *eq = '=';
    }
    for (int i = 0; i < n; i++) {
        char *eq = strchr(arg[i], '=');
        *eq = '\0';
        Define *d = settings_find(&s->cur, arg[i]);
        if (d) {
            free((char *)d->value);
            d->value = xstrdup(eq + 1);
        } else {
            Settings *c = &s->cur;
            c->defs = xrealloc(c->defs, (size_t)(c->ndefs + 1) * sizeof *c->defs);
            c->defs[c->ndefs++] = (Define){xstrdup(arg[i]), xstrdup(eq + 1),
                                           name_kind(s->p.sp, arg[i]) == SYM_PARAMETER};
        }
    }
    return update(s, 0);
}

static int cmd_unset(Session *s, char **arg, int n)
{
    if (!n)
        return cmd_error("%s", "unset expects the NAME of a -D value");
    for (int i = 0; i < n; i++) {
        define_name(arg[i]);
        if (!settings_find(&s->cur, arg[i]))
            return cmd_error("'%s' has no -D value ('show' lists them)", arg[i]);
    }
    for (int i = 0; i < n; i++) {
        Settings *c = &s->cur;
        Define *d = settings_find(c, arg[i]);
        if (!d)
            continue;    /* named twice */
        free((char *)d->name);
        free((char *)d->value);
        *d = c->defs[--c->ndefs];
    }
    return update(s, 0);
}

static int cmd_np(Session *s, char **arg, int n)
{
    long v;
    const char *rest;
    if (n != 1 || parse_pos(arg[0], '\0', &v, &rest) || v > MAX_NP)
        return cmd_error("np expects a processor count from 1 to 4194304%s",
                         n == 1 ? "" : ", once");
    if (s->o->trace && v > MAX_TRACE_NP)
        return cmd_error("%s", "--trace keeps every event of every processor: at most 4096 "
                         "processors");
    s->cur.np = (int)v;
    return update(s, 0);
}

/* Splits a line into words at blanks; a # starts a comment. */
static int split(char *line, char **w, int max)
{
    int n = 0;
    for (char *c = line; *c;) {
        while (*c == ' ' || *c == '\t' || *c == '\r')
            c++;
        if (!*c || *c == '#')
            break;
        if (n == max)
            return -1;
        w[n++] = c;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r')
            c++;
        if (*c)
            *c++ = '\0';
    }
    return n;
}

/* One command. Returns 1 to leave. */
static int command(Session *s, char *line)
{
    char *w[32];
    int n = split(line, w, 32);
    if (n < 0) {
        cmd_error("%s", "too many words on the line");
        return 0;
    }
    if (!n)
        return 0;
    const char *c = w[0];
    char **arg = w + 1;
    int na = n - 1;
    ReportQuery q = {0};
    long v, b;
    const char *rest;
    int nl = source_nlines(s->f);
    if (!strcmp(c, "quit") || !strcmp(c, "exit")) {
        return 1;
    } else if (!strcmp(c, "help") || !strcmp(c, "?")) {
        help();
    } else if (!strcmp(c, "summary") || !strcmp(c, "report")) {
        if (na)
            cmd_error("%s takes no argument", c);
        else
            answer(s, NULL);
    } else if (!strcmp(c, "profile") || !strcmp(c, "annotate")) {
        if (na)
            cmd_error("%s takes no argument", c);
        else {
            q.profile = c[0] == 'p';
            q.annotate = c[0] == 'a';
            answer(s, &q);
        }
    } else if (!strcmp(c, "aau")) {
        if (na != 1 || parse_pos(arg[0], '\0', &v, &rest))
            cmd_error("%s", "aau expects the number of an AAU ('list' shows them)");
        else if (v > s->p.g->naau) {
            char msg[80];
            snprintf(msg, sizeof msg, "aau %ld: the program has %d AAUs", v, s->p.g->naau);
            cmd_error("%s ('list' shows them)", msg);
        } else {
            int id = (int)v;
            q.aau = &id;
            q.naau = 1;
            answer(s, &q);
        }
    } else if (!strcmp(c, "line")) {
        if (na != 1 || parse_pos(arg[0], '\0', &v, &rest))
            cmd_error("%s", "line expects a line number from 1");
        else if (v > nl) {
            char msg[80];
            snprintf(msg, sizeof msg, "line %ld: the file has %d line%s", v, nl,
                     nl == 1 ? "" : "s");
            cmd_error("%s", msg);
        } else {
            int l = (int)v;
            q.line = &l;
            q.nline = 1;
            answer(s, &q);
        }
    } else if (!strcmp(c, "lines")) {
        if (na != 1 || parse_pos(arg[0], '-', &v, &rest) || parse_pos(rest + 1, '\0', &b, &rest)
            || b < v)
            cmd_error("%s", "lines expects a range A-B of line numbers, 1 <= A <= B");
        else if (b > nl) {
            char msg[80];
            snprintf(msg, sizeof msg, "lines %ld-%ld: the file has %d line%s", v, b, nl,
                     nl == 1 ? "" : "s");
            cmd_error("%s", msg);
        } else {
            LineRange r = {(int)v, (int)b};
            q.range = &r;
            q.nrange = 1;
            answer(s, &q);
        }
    } else if (!strcmp(c, "list")) {
        list_tree(s->p.g->root, 0);
    } else if (!strcmp(c, "aag")) {
        aag_dump(stdout, s->p.g);
    } else if (!strcmp(c, "saag")) {
        saag_dump(stdout, s->p.g);
    } else if (!strcmp(c, "format")) {
        if (na == 1 && !strcmp(arg[0], "text"))
            s->format = FMT_TEXT;
        else if (na == 1 && !strcmp(arg[0], "json"))
            s->format = FMT_JSON;
        else if (na == 1 && !strcmp(arg[0], "csv"))
            s->format = FMT_CSV;
        else
            cmd_error("%s", "format expects text, json or csv");
    } else if (!strcmp(c, "np")) {
        cmd_np(s, arg, na);
    } else if (!strcmp(c, "set")) {
        cmd_set(s, arg, na);
    } else if (!strcmp(c, "unset")) {
        cmd_unset(s, arg, na);
    } else if (!strcmp(c, "show")) {
        show(s);
    } else
        cmd_error("unknown command '%s' ('help' lists the commands)", c);
    return 0;
}

/* The next line (its newline removed; the caller frees it), or NULL at the
 * end of the input. */
static char *next_line(int tty)
{
#if defined(HAVE_LIBEDIT) || defined(HAVE_READLINE)
    if (tty) {
        char *l = readline(prompt);
        if (l && *l)
            add_history(l);
        return l;
    }
#endif
    if (tty) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    char *l = NULL;
    size_t cap = 0;
    ssize_t n = getline(&l, &cap, stdin);
    if (n < 0) {
        free(l);
        return NULL;
    }
    if (n && l[n - 1] == '\n')
        l[n - 1] = '\0';
    return l;
}

int interact(const Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name)
{
    Session s = {o, f, sag, sag_name, o->format, {0}, {0}, {0}, {0}, 0, {0}};
    s.cur.np = o->np[0];
    s.cur.ndefs = o->ndefs;
    s.cur.defs = xcalloc((size_t)o->ndefs + 1, sizeof *s.cur.defs);
    for (int i = 0; i < o->ndefs; i++)
        s.cur.defs[i] = (Define){xstrdup(o->defs[i].name), xstrdup(o->defs[i].value), 0};
    /* the compilation: its errors are the file's, nothing to ask about */
    Diag d;
    diag_init(&d, stderr);
    d.format = o->diag_format;
    int bad = program_compile(o, f, s.cur.defs, s.cur.ndefs, &s.p, &d);
    if (!bad) {
        s.p.g = program_abstract(o, &s.p, s.cur.defs, s.cur.ndefs);
        settings_copy(&s.built, &s.cur);
        if (o->dot) {
            FILE *out = fopen(o->dot, "w");
            if (out)
                aag_dot(out, s.p.g);
            if (!out || fclose(out) != 0) {
                fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->dot);
                bad = 1;
            }
        }
    }
    diag_end(&d);
    int tty = isatty(0);
    if (!bad) {
        if (tty)
            printf("%s on %s; 'help' lists the commands\n", o->path, sag_name);
        update(&s, !tty);
        fflush(stdout);
        int eof = 0;
        for (;;) {
            char *line = next_line(tty);
            if (!line) {
                eof = 1;
                break;
            }
            int leave = command(&s, line);
            free(line);
            fflush(stdout);
            if (leave || ferror(stdout))
                break;
        }
        if (tty && eof)
            putchar('\n');     /* the end of the input typed: the shell's prompt on a new line */
    }
    program_free(&s.p);
    settings_free(&s.cur);
    settings_free(&s.built);
    settings_free(&s.last);
#if defined(HAVE_LIBEDIT) || defined(HAVE_READLINE)
    if (tty)
        clear_history();
#endif
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("hpfpredict: error: cannot write the output\n", stderr);
        return 1;
    }
    return bad;
}
