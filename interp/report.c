/* report.c - the summary and the AAU tree of a prediction, as text and as
 * JSON. The tree shows, per AAU, the time of the slowest processor summed
 * over its executions, and the mean split per processor; compound AAUs
 * include everything below them. Then the queries: profiles (program, AAU,
 * sub-AAG, line, range of lines) as text, JSON and CSV, the annotated
 * listing, and the callgrind profile. Rules and schemas: doc/outputs.md. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm_reason.h"
#include "report.h"

static void add_list(const PtrVec *l, int np, double m[M_N], double *slow)
{
    for (int i = 0; i < l->n; i++) {
        double mm[M_N] = {0}, s = 0;
        report_subtree(l->v[i], np, mm, &s);
        for (int k = 0; k < M_N; k++)
            m[k] += mm[k];
        *slow += s;
    }
}

void report_subtree(const Aau *a, int np, double m[M_N], double *slow)
{
    for (int k = 0; k < M_N; k++)
        m[k] = a->m_sum[k] / (np > 0 ? np : 1);
    *slow = a->m_max;
    add_list(&a->kids, np, m, slow);
    if (a->body)      /* a procedure's body, under its first Call */
        add_list(a->body, np, m, slow);
    for (int b = 0; b < a->nbranch; b++) {
        if (a->bpre)
            add_list(&a->bpre[b], np, m, slow);
        add_list(&a->bbody[b], np, m, slow);
    }
}

static const char *lines_of(const Aau *a, char buf[32])
{
    if (!a->line)
        snprintf(buf, 32, "-");
    else if (a->line_end > a->line)
        snprintf(buf, 32, "%d-%d", a->line, a->line_end);
    else
        snprintf(buf, 32, "%d", a->line);
    return buf;
}

/* ---- text ---- */

static void tree_text(FILE *out, const Aau *a, int np, int depth);

static void list_text(FILE *out, const PtrVec *l, int np, int depth)
{
    for (int i = 0; i < l->n; i++)
        tree_text(out, l->v[i], np, depth);
}

/* One row of an AAU table: the slowest time, the mean parts, the AAU. */
static void row_text(FILE *out, double slow, const double m[M_N], const Aau *a, int depth)
{
    char buf[32];
    fprintf(out, "%12.6f %11.6f %11.6f %11.6f %11.6f  %*s#%d %s %s%s%s\n", slow, m[M_COMP],
            m[M_COMM], m[M_OVHD], m[M_WAIT], 2 * depth, "", a->id, aau_class_name[a->cls],
            lines_of(a, buf), a->label ? "  " : "", a->label ? a->label : "");
}

static void tree_text(FILE *out, const Aau *a, int np, int depth)
{
    double m[M_N], slow;
    report_subtree(a, np, m, &slow);
    row_text(out, slow, m, a, depth);
    list_text(out, &a->kids, np, depth + 1);
    if (a->cls == AAU_CALL && a->home && a->home != a)
        fprintf(out, "%12s %11s %11s %11s %11s  %*s(its body under #%d)\n", "", "", "", "", "",
                2 * depth + 2, "", a->home->id);
    if (a->body) {
        const SpUnit *c = a->callee;
        int named = c->clone_of && strcmp(c->name, c->unit->u.unit.id);
        fprintf(out, "%12s %11s %11s %11s %11s  %*sprocedure %s%s%s%s: %.6g call%s in all, its time from every call site\n",
                "", "", "", "", "", 2 * depth + 2, "", c->unit->u.unit.id,
                named ? " (compiled as " : c->clone_of ? " (in " : "",
                named ? c->name : c->clone_of ? c->host->name : "",
                named ? " for the mappings at its calls)" : c->clone_of ? ")" : "", a->calls,
                a->calls == 1 ? "" : "s");
        list_text(out, a->body, np, depth + 2);
    }
    for (int b = 0; b < a->nbranch; b++) {
        char *c = a->bcond[b] ? unparse_expr_string(a->bcond[b], NULL, NULL) : NULL;
        fprintf(out, "%12s %11s %11s %11s %11s  %*s%s %s\n", "", "", "", "", "", 2 * depth + 2,
                "", c ? "branch" : "else", c ? c : "");
        free(c);
        if (a->bpre)
            list_text(out, &a->bpre[b], np, depth + 2);
        list_text(out, &a->bbody[b], np, depth + 2);
    }
}

static void header_text(FILE *out, const Report *rp)
{
    const EngineResult *r = rp->r;
    fprintf(out, "%s on %s: %d processor%s%s%s (SAG unit %s, hypercube dimension %d)\n",
            rp->program, rp->sag, r->np, r->np == 1 ? "" : "s",
            rp->values && *rp->values ? ", " : "", rp->values ? rp->values : "", r->node,
            r->cube_dim);
}

/* A share in percent (part / whole first: 100 x part can overflow). */
static double pct(double part, double whole)
{
    return whole > 0 ? part / whole * 100.0 : 0;
}

static const char aau_header[] = "%12s %11s %11s %11s %11s  %s\n";

void report_text(FILE *out, const Report *rp)
{
    const EngineResult *r = rp->r;
    double tot = r->total > 0 ? r->total : 1;
    header_text(out, rp);
    fprintf(out, "predicted time  %.6f s  (slowest processor %d; fastest %.6f s)\n", r->total,
            r->slowest, r->min_total);
    for (int k = 0; k < M_N; k++)
        fprintf(out, "  %-14s %12.6f s  %5.1f%%   mean %12.6f s\n", metric_name[k], r->part[k],
                pct(r->part[k], tot), r->mean[k]);
    fprintf(out, "interpretation: %lld AAU applications, %lld loop iterations extrapolated\n",
            r->aau_visits, r->extrapolated);
    for (int k = 0; k < r->nsettled; k++)
        fprintf(out, "  the loop at line %d: %lld iterations interpreted, then %lld extrapolated "
                "from their steady state (its data decide its costs; --unroll interprets "
                "every one)\n", r->settled[k].line, r->settled[k].interpreted,
                r->settled[k].extrapolated);
    putc('\n', out);
    fprintf(out, aau_header, "slowest(s)", "comp", "comm", "ovhd", "wait",
            "AAU (means per processor)");
    tree_text(out, rp->g->root, r->np, 0);
}

/* ---- JSON ---- */


/* %.12g: the parts add up to the total to 1e-11; never "nan" or "inf". */
void report_num(FILE *out, double v)
{
    if (!isfinite(v))
        v = 0;
    fprintf(out, "%.12g", v);
}

static void tree_json(FILE *out, const Aau *a, int np, int ind);
static void query_json(FILE *out, const Report *rp, int indent);

static void list_json(FILE *out, const PtrVec *l, int np, int ind)
{
    fputc('[', out);
    for (int i = 0; i < l->n; i++) {
        fprintf(out, "%s\n%*s", i ? "," : "", ind + 2, "");
        tree_json(out, l->v[i], np, ind + 2);
    }
    if (l->n)
        fprintf(out, "\n%*s", ind, "");
    fputc(']', out);
}

static void tree_json(FILE *out, const Aau *a, int np, int ind)
{
    double m[M_N], slow;
    report_subtree(a, np, m, &slow);
    fprintf(out, "{\"id\": %d, \"class\": ", a->id);
    json_string(out, aau_class_name[a->cls]);
    fprintf(out, ", \"line\": %d, \"line_end\": %d, \"label\": ", a->line,
            a->line_end > a->line ? a->line_end : a->line);
    json_string(out, a->label);
    fputs(", \"time\": ", out);
    report_num(out, slow);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, ", \"%s\": ", metric_name[k]);
        report_num(out, m[k]);
    }
    fputs(", \"executions\": ", out);
    report_num(out, a->execs);
    if (a->cls == AAU_CALL && a->callee) {
        fputs(", \"callee\": ", out);
        json_string(out, a->callee->unit->u.unit.id);
        if (a->callee->clone_of) {
            fputs(", \"clone\": ", out);
            json_string(out, a->callee->name);
        }
        if (a->body) {
            fputs(", \"calls\": ", out);
            report_num(out, a->calls);
        } else if (a->home) {
            fprintf(out, ", \"body_under\": %d", a->home->id);
        }
    }
    if (a->kids.n) {
        fprintf(out, ",\n%*s\"kids\": ", ind + 1, "");
        list_json(out, &a->kids, np, ind + 1);
    }
    if (a->body) {
        fprintf(out, ",\n%*s\"body\": ", ind + 1, "");
        list_json(out, a->body, np, ind + 1);
    }
    if (a->nbranch) {
        fprintf(out, ",\n%*s\"branches\": [", ind + 1, "");
        for (int b = 0; b < a->nbranch; b++) {
            char *c = a->bcond[b] ? unparse_expr_string(a->bcond[b], NULL, NULL) : NULL;
            fprintf(out, "%s\n%*s{\"cond\": ", b ? "," : "", ind + 3, "");
            if (c)
                json_string(out, c);
            else
                fputs("null", out);
            free(c);
            fprintf(out, ",\n%*s\"pre\": ", ind + 4, "");
            if (a->bpre)
                list_json(out, &a->bpre[b], np, ind + 4);
            else
                fputs("[]", out);
            fprintf(out, ",\n%*s\"body\": ", ind + 4, "");
            list_json(out, &a->bbody[b], np, ind + 4);
            fputc('}', out);
        }
        fprintf(out, "\n%*s]", ind + 1, "");
    }
    fputc('}', out);
}

void report_json(FILE *out, const Report *rp, int indent)
{
    const EngineResult *r = rp->r;
    fprintf(out, "%*s{\"program\": ", indent, "");
    json_string(out, rp->program);
    fputs(", \"sag\": ", out);
    json_string(out, rp->sag);
    fprintf(out, ", \"np\": %d,", r->np);
    if (rp->values && *rp->values) {
        fputs(" \"values\": ", out);
        json_string(out, rp->values);
        putc(',', out);
    }
    fprintf(out, "\n%*s \"total\": ", indent, "");
    report_num(out, r->total);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, ", \"%s\": ", metric_name[k]);
        report_num(out, r->part[k]);
    }
    fprintf(out, ",\n%*s \"slowest\": %d, \"fastest_total\": ", indent, "", r->slowest);
    report_num(out, r->min_total);
    fputs(", \"mean\": {", out);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", metric_name[k]);
        report_num(out, r->mean[k]);
    }
    fprintf(out, "},\n%*s \"interpretation\": {\"aau_applications\": %lld, \"extrapolated\": "
            "%lld, \"interpreter_steps\": %lld, \"settled\": [", indent, "", r->aau_visits,
            r->extrapolated, r->fi_steps);
    for (int k = 0; k < r->nsettled; k++)
        fprintf(out, "%s{\"line\": %d, \"interpreted\": %lld, \"extrapolated\": %lld}",
                k ? ", " : "", r->settled[k].line, r->settled[k].interpreted,
                r->settled[k].extrapolated);
    fputc(']', out);
    const ReportQuery *q = report_has_query(rp->q) ? rp->q : NULL;
    fprintf(out, "},\n%*s \"aau\": [\n%*s", indent, "", indent + 2, "");
    if (q && q->naau)
        for (int i = 0; i < q->naau; i++) {
            if (i)
                fprintf(out, ",\n%*s", indent + 2, "");
            tree_json(out, rp->g->aau[q->aau[i] - 1], r->np, indent + 2);
        }
    else
        tree_json(out, rp->g->root, r->np, indent + 2);
    fprintf(out, "],\n%*s \"lines\": [", indent, "");
    if (q)
        query_json(out, rp, indent);
    fputc(']', out);
    if (rp->extra)
        rp->extra(out, rp, rp->extra_ctx);
    fputc('}', out);
}

/* ---- profiles ---------------------------------------------------------- */

/* The time of a scope (the program, an AAU, a sub-AAG, a line, a range of
 * lines): the mean per processor of each part, and over the executions of
 * its AAUs the sum of the slowest and of the fastest processor's times. */
typedef struct {
    double part[M_N];
    double slow, fast;
    double execs;
    int naau;
} Prof;

static double prof_mean(const Prof *p)
{
    double t = 0;
    for (int k = 0; k < M_N; k++)
        t += p->part[k];
    return t;
}

/* (slowest - mean) / slowest: 0 when every processor takes the same time,
 * 1 - 1/P when one of P processors does all the work. A difference at the
 * rounding level of the sums is no imbalance. */
static double prof_imbalance(const Prof *p)
{
    double mean = prof_mean(p);
    if (!(p->slow > 0) || !(mean < p->slow))
        return 0;
    double v = (p->slow - mean) / p->slow;
    return v < 1e-12 ? 0 : v > 1 ? 1 : v;
}

static void prof_add(Prof *p, const Prof *x)
{
    for (int k = 0; k < M_N; k++)
        p->part[k] += x->part[k];
    p->slow += x->slow;
    p->fast += x->fast;
    p->execs += x->execs;
    p->naau += x->naau;
}

/* The AAU's own time: what the engine charged to it, not to the AAUs
 * below it. */
static void prof_own(Prof *p, const Aau *a, int np)
{
    for (int k = 0; k < M_N; k++)
        p->part[k] += a->m_sum[k] / (np > 0 ? np : 1);
    p->slow += a->m_max;
    p->fast += a->m_min;
    p->execs += a->execs;
    p->naau++;
}

static void prof_tree(Prof *p, const Aau *a, int np);

static void prof_list(Prof *p, const PtrVec *l, int np)
{
    for (int i = 0; i < l->n; i++) {
        Prof x = {0};
        prof_tree(&x, l->v[i], np);
        prof_add(p, &x);
    }
}

/* The sub-AAG: the AAU and everything below it, summed as report_subtree
 * sums (the same order, so that the figures agree to the last digit). A
 * procedure's AAUs are below the first Call of it only (the home Call):
 * they are shared by every call, and counted once. */
static void prof_tree(Prof *p, const Aau *a, int np)
{
    prof_own(p, a, np);
    prof_list(p, &a->kids, np);
    if (a->body)
        prof_list(p, a->body, np);
    for (int b = 0; b < a->nbranch; b++) {
        if (a->bpre)
            prof_list(p, &a->bpre[b], np);
        prof_list(p, &a->bbody[b], np);
    }
}

static void prof_subaag(Prof *p, const Aau *a, int np)
{
    memset(p, 0, sizeof *p);
    prof_tree(p, a, np);
    p->execs = a->execs;
}

/* The whole program: the engine's figures for the processors' finishing
 * times (what the AAUs' executions sum to differs: a processor's slowest
 * AAU need not be on the slowest processor). */
static void prof_program(Prof *p, const Report *rp)
{
    memset(p, 0, sizeof *p);
    for (int k = 0; k < M_N; k++)
        p->part[k] = rp->r->mean[k];
    p->slow = rp->r->total;
    p->fast = rp->r->min_total;
    p->execs = 1;
    p->naau = rp->g->naau;
}

/* ---- source lines ------------------------------------------------------ */

/* Lines of the source (the empty one after a final newline not counted),
 * and at least the last line an AAU names. */
static int source_lines(const Report *rp)
{
    int n = 0;
    if (rp->src) {
        n = rp->src->nlines;
        if (rp->src->len && rp->src->text[rp->src->len - 1] == '\n')
            n--;
    }
    for (int i = 0; i < rp->g->naau; i++) {
        const Aau *a = rp->g->aau[i];
        if (a->line > n)
            n = a->line;
        if (a->line_end > n)
            n = a->line_end;
    }
    return n > 0 ? n : 1;
}

static int line_end_of(const Aau *a)
{
    return a->line_end > a->line ? a->line_end : a->line;
}

/* The line an AAU's own time is counted on: its first line; an AAU with no
 * line of its own takes that of the nearest AAU above it, else the first
 * line of its unit. */
static int aau_line(const Aau *a, int nlines)
{
    const Aau *x = a;
    while (x && x->line <= 0)
        x = x->parent;
    int l = x ? x->line : a->unit && a->unit->unit ? a->unit->unit->loc.line : 1;
    if (l < 1)
        l = 1;
    return l > nlines ? nlines : l;
}

/* The text of a source line, without its end of line; "" when unknown. */
static const char *line_text(const SrcFile *f, int n, int *len)
{
    *len = 0;
    if (!f || n < 1 || n > f->nlines)
        return "";
    const char *s = f->text + f->line_off[n];
    const char *e = n < f->nlines ? f->text + f->line_off[n + 1] - 1 : f->text + f->len;
    while (e > s && (e[-1] == '\r' || e[-1] == '\n'))
        e--;
    const char *z = memchr(s, '\0', (size_t)(e - s));   /* NULs end the text shown */
    *len = (int)((z ? z : e) - s);
    return s;
}

static char *line_dup(const SrcFile *f, int n)
{
    int len;
    const char *s = line_text(f, n, &len);
    char *c = xmalloc((size_t)len + 1);
    memcpy(c, s, (size_t)len);
    c[len] = '\0';
    return c;
}

/* The time per line: line[n] for n = 1..nlines. */
typedef struct {
    int n;
    Prof *line;
} Lines;

static void lines_build(Lines *L, const Report *rp)
{
    L->n = source_lines(rp);
    L->line = xcalloc((size_t)L->n + 1, sizeof *L->line);
    for (int i = 0; i < rp->g->naau; i++) {
        const Aau *a = rp->g->aau[i];
        prof_own(&L->line[aau_line(a, L->n)], a, rp->r->np);
    }
}

int report_line_means(const Report *rp, double **t)
{
    Lines L;
    lines_build(&L, rp);
    *t = xcalloc((size_t)L.n + 1, sizeof **t);
    for (int l = 1; l <= L.n; l++)
        (*t)[l] = prof_mean(&L.line[l]);
    free(L.line);
    return L.n;
}

static void range_prof(Prof *p, const Lines *L, int first, int last)
{
    memset(p, 0, sizeof *p);
    for (int l = first; l <= last && l <= L->n; l++)
        prof_add(p, &L->line[l]);
    p->execs = 0;
}

/* The innermost AAU that covers line n without starting on it (a loop
 * around the line, a statement continued onto it), or NULL. */
static const Aau *inside_of(const Aag *g, int n)
{
    const Aau *best = NULL;
    for (int i = 0; i < g->naau; i++) {
        const Aau *a = g->aau[i];
        if (a->line <= 0 || a->line >= n || line_end_of(a) < n)
            continue;
        if (!best || line_end_of(a) - a->line <= line_end_of(best) - best->line)
            best = a;
    }
    return best;
}

/* The lines the query asks about: every line with --annotate. */
static char *wanted_lines(const ReportQuery *q, const Lines *L)
{
    char *w = xcalloc((size_t)L->n + 1, 1);
    for (int i = 0; i < q->nline; i++)
        if (q->line[i] >= 1 && q->line[i] <= L->n)
            w[q->line[i]] = 1;
    for (int i = 0; i < q->nrange; i++)
        for (int l = q->range[i].first; l <= q->range[i].last && l <= L->n; l++)
            w[l] = 1;
    if (q->annotate)
        memset(w + 1, 1, (size_t)L->n);
    return w;
}

int report_has_query(const ReportQuery *q)
{
    return q && (q->profile || q->naau || q->nline || q->nrange || q->annotate);
}

/* ---- queries as text --------------------------------------------------- */


/* A profile: the mean time and its split (with the share of each part),
 * the slowest and fastest processors' times, the imbalance; for the whole
 * program the slowest processor's split too. */
static void block_text(FILE *out, const Prof *p, const double *slow_part)
{
    double mean = prof_mean(p);
    fprintf(out, "  %-15s %12s %6s %12s %12s\n", "", "mean(s)", "%", "slowest(s)", "fastest(s)");
    fprintf(out, "  %-15s %12.6f %6.1f %12.6f %12.6f   imbalance %.1f%%\n", "time", mean,
            mean > 0 ? 100.0 : 0.0, p->slow, p->fast, 100 * prof_imbalance(p));
    for (int k = 0; k < M_N; k++) {
        fprintf(out, "  %-15s %12.6f %6.1f", metric_name[k], p->part[k], pct(p->part[k], mean));
        if (slow_part)
            fprintf(out, " %12.6f", slow_part[k]);
        putc('\n', out);
    }
}

static void program_text(FILE *out, const Report *rp)
{
    Prof p;
    char buf[32];
    prof_program(&p, rp);
    const Aau *root = rp->g->root;
    fprintf(out, "%s, lines %s: %d AAUs, slowest processor %d\n",
            root->label ? root->label : "program", lines_of(root, buf), rp->g->naau,
            rp->r->slowest);
    block_text(out, &p, rp->r->part);
}

static int count_below(const Aau *a)
{
    Prof p = {0};
    prof_tree(&p, a, 1);
    return p.naau - 1;
}

/* Why the mapping makes a's communication, as a line of text (indent
 * spaces first); nothing for an AAU that does not communicate. */
static void comm_text(FILE *out, const Aau *a, int indent)
{
    if (!a->comm)
        return;
    char *why = comm_reason(a->comm);
    fprintf(out, "%*s#%d %s: %s\n", indent, "", a->id, comm_kind_words(a->comm), why);
    free(why);
}

static void aau_text(FILE *out, const Report *rp, const Aau *a, double prog)
{
    int np = rp->r->np;
    char buf[32];
    Prof own = {0}, sub;
    prof_own(&own, a, np);
    fprintf(out, "AAU #%d %s %s%s%s: own time, %.1f%% of the program's mean time; executed "
            "%.10g time%s (all processors together)\n", a->id, aau_class_name[a->cls],
            lines_of(a, buf), a->label ? "  " : "", a->label ? a->label : "",
            pct(prof_mean(&own), prog), a->execs, a->execs == 1 ? "" : "s");
    block_text(out, &own, NULL);
    if (a->comm) {
        fputs("communication: ", out);
        comm_text(out, a, 0);
    }
    int below = count_below(a);
    if (!below) {
        fputs("no AAU below it: its sub-AAG is the AAU alone\n", out);
        return;
    }
    prof_subaag(&sub, a, np);
    fprintf(out, "\nsub-AAG of #%d: the AAU and the %d below it, %.1f%% of the program's mean "
            "time\n", a->id, below, pct(prof_mean(&sub), prog));
    block_text(out, &sub, NULL);
    putc('\n', out);
    fprintf(out, aau_header, "slowest(s)", "comp", "comm", "ovhd", "wait",
            "AAU (means per processor; compound AAUs with everything below them)");
    tree_text(out, a, np, 0);
}

/* The columns of the annotated listing. */
/* A communication's note in the listing starts under the source text:
 * after the metrics' columns and the line number. */
enum { LISTING_NOTE = 75 };

static void listing_head(FILE *out)
{
    fprintf(out, "%10s %6s %10s %10s %10s %10s %6s %6s %s\n", "time(s)", "%time", "comp(s)",
            "comm(s)", "ovhd(s)", "wait(s)", "imbal", "line:", "source");
}

static void listing_row(FILE *out, const Prof *p, double prog)
{
    fprintf(out, "%10.6f %6.1f %10.6f %10.6f %10.6f %10.6f %5.1f%%", prof_mean(p),
            pct(prof_mean(p), prog), p->part[M_COMP], p->part[M_COMM], p->part[M_OVHD],
            p->part[M_WAIT], 100 * prof_imbalance(p));
}

static void listing_line(FILE *out, const Report *rp, const Lines *L, int l, double prog)
{
    int len;
    const char *s = line_text(rp->src, l, &len);
    if (L->line[l].naau)
        listing_row(out, &L->line[l], prog);
    else
        fprintf(out, "%10s %6s %10s %10s %10s %10s %6s", "-", "", "", "", "", "", "");
    fprintf(out, " %5d:", l);
    fwrite(s, 1, (size_t)len, out);
    putc('\n', out);
    for (int i = 0; L->line[l].naau && i < rp->g->naau; i++)
        if (aau_line(rp->g->aau[i], L->n) == l)
            comm_text(out, rp->g->aau[i], LISTING_NOTE);
}

static void listing_total(FILE *out, const Prof *p, double prog, const char *what)
{
    listing_row(out, p, prog);
    fprintf(out, " %s\n", what);
}

static void line_query_text(FILE *out, const Report *rp, const Lines *L, int l, double prog)
{
    const Aag *g = rp->g;
    const Prof *p = &L->line[l];
    int len;
    char buf[32];
    const char *s = line_text(rp->src, l, &len);
    if (p->naau)
        fprintf(out, "line %d: %d AAU%s, %.1f%% of the program's mean time\n", l, p->naau,
                p->naau == 1 ? "" : "s", pct(prof_mean(p), prog));
    else
        fprintf(out, "line %d: no AAU starts on this line\n", l);
    fprintf(out, "%6d:", l);
    fwrite(s, 1, (size_t)len, out);
    putc('\n', out);
    if (p->naau) {
        block_text(out, p, NULL);
        fprintf(out, aau_header, "slowest(s)", "comp", "comm", "ovhd", "wait",
                "AAU (own time, means per processor)");
        for (int i = 0; i < g->naau; i++) {
            const Aau *a = g->aau[i];
            if (aau_line(a, L->n) != l)
                continue;
            double m[M_N];
            for (int k = 0; k < M_N; k++)
                m[k] = a->m_sum[k] / (rp->r->np > 0 ? rp->r->np : 1);
            row_text(out, a->m_max, m, a, 0);
        }
        int said = 0;
        for (int i = 0; i < g->naau; i++) {
            const Aau *a = g->aau[i];
            if (aau_line(a, L->n) != l || !a->comm)
                continue;
            if (!said++)
                fputs("communication, and why the mapping makes it:\n", out);
            comm_text(out, a, 2);
        }
    }
    const Aau *in = inside_of(g, l);
    if (in)
        fprintf(out, "inside #%d %s %s%s%s (its own time is on line %d)\n", in->id,
                aau_class_name[in->cls], lines_of(in, buf), in->label ? "  " : "",
                in->label ? in->label : "", aau_line(in, L->n));
}

static void range_text(FILE *out, const Report *rp, const Lines *L, LineRange r, double prog)
{
    Prof p;
    range_prof(&p, L, r.first, r.last);
    fprintf(out, "lines %d-%d: %d AAU%s, %.1f%% of the program's mean time\n", r.first, r.last,
            p.naau, p.naau == 1 ? "" : "s", pct(prof_mean(&p), prog));
    block_text(out, &p, NULL);
    listing_head(out);
    for (int l = r.first; l <= r.last && l <= L->n; l++)
        listing_line(out, rp, L, l, prog);
    listing_total(out, &p, prog, "lines total");
}

/* The total row is the program's: the same mean time as the sum of the
 * lines, and the imbalance of the processors' finishing times. */
static void annotate_text(FILE *out, const Report *rp, const Lines *L, double prog)
{
    Prof p;
    prof_program(&p, rp);
    fprintf(out, "%s: per line, the own time of the AAUs that start on it, mean per "
            "processor ('-': no AAU)\n", rp->program);
    listing_head(out);
    for (int l = 1; l <= L->n; l++)
        listing_line(out, rp, L, l, prog);
    listing_total(out, &p, prog, "total");
}

void report_query_text(FILE *out, const Report *rp)
{
    const ReportQuery *q = rp->q;
    Prof prog;
    prof_program(&prog, rp);
    double pm = prof_mean(&prog);
    Lines L;
    lines_build(&L, rp);
    header_text(out, rp);
    program_text(out, rp);
    for (int i = 0; q && i < q->naau; i++) {
        putc('\n', out);
        aau_text(out, rp, rp->g->aau[q->aau[i] - 1], pm);
    }
    for (int i = 0; q && i < q->nline; i++) {
        putc('\n', out);
        line_query_text(out, rp, &L, q->line[i], pm);
    }
    for (int i = 0; q && i < q->nrange; i++) {
        putc('\n', out);
        range_text(out, rp, &L, q->range[i], pm);
    }
    if (q && q->annotate) {
        putc('\n', out);
        annotate_text(out, rp, &L, pm);
    }
    free(L.line);
}

/* ---- queries as JSON --------------------------------------------------- */

static void metrics_json(FILE *out, const Prof *p)
{
    fputs("\"slowest\": ", out);
    report_num(out, p->slow);
    fputs(", \"fastest\": ", out);
    report_num(out, p->fast);
    fputs(", \"mean\": ", out);
    report_num(out, prof_mean(p));
    fputs(", \"imbalance\": ", out);
    report_num(out, prof_imbalance(p));
    for (int k = 0; k < M_N; k++) {
        fprintf(out, ", \"%s\": ", metric_name[k]);
        report_num(out, p->part[k]);
    }
}

/* The keys "kind" and "reason" of a communication. */
static void comm_json(FILE *out, const CommEntry *e)
{
    char *why = comm_reason(e);
    fputs("\"kind\": ", out);
    json_string(out, comm_kind_words(e));
    fputs(", \"reason\": ", out);
    json_string(out, why);
    free(why);
}

/* A profile object; a NULL: the program or a range of lines. */
static void prof_json(FILE *out, const char *scope, const Aau *a, int line, int line_end,
                      const char *label, const Prof *p, int execs)
{
    fputs("{\"scope\": ", out);
    json_string(out, scope);
    if (a) {
        fprintf(out, ", \"id\": %d, \"class\": ", a->id);
        json_string(out, aau_class_name[a->cls]);
    } else
        fputs(", \"id\": null, \"class\": null", out);
    fprintf(out, ", \"line\": %d, \"line_end\": %d, \"label\": ", line, line_end);
    json_string(out, label);
    fprintf(out, ", \"aaus\": %d, \"executions\": ", p->naau);
    if (execs)
        report_num(out, p->execs);
    else
        fputs("null", out);
    fputs(", ", out);
    metrics_json(out, p);
    if (a && !strcmp(scope, "aau")) {
        fputs(", \"communicates\": ", out);
        if (a->comm) {
            fputc('{', out);
            comm_json(out, a->comm);
            fputc('}', out);
        } else {
            fputs("null", out);
        }
    }
    fputc('}', out);
}

void report_aau_json(FILE *out, const Aau *a, int np)
{
    Prof own = {0};
    prof_own(&own, a, np);
    prof_json(out, "aau", a, a->line, line_end_of(a), a->label, &own, 1);
}

static void line_json(FILE *out, const Report *rp, const Lines *L, int l)
{
    const Aag *g = rp->g;
    char *s = line_dup(rp->src, l);
    fprintf(out, "{\"line\": %d, \"source\": ", l);
    json_string(out, s);
    free(s);
    fprintf(out, ", \"aaus\": %d, \"ids\": [", L->line[l].naau);
    for (int i = 0, n = 0; i < g->naau; i++)
        if (aau_line(g->aau[i], L->n) == l)
            fprintf(out, "%s%d", n++ ? ", " : "", g->aau[i]->id);
    const Aau *in = inside_of(g, l);
    if (in)
        fprintf(out, "], \"inside\": %d, ", in->id);
    else
        fputs("], \"inside\": null, ", out);
    metrics_json(out, &L->line[l]);
    fputs(", \"communications\": [", out);
    for (int i = 0, n = 0; i < g->naau; i++) {
        const Aau *a = g->aau[i];
        if (aau_line(a, L->n) != l || !a->comm)
            continue;
        fprintf(out, "%s{\"aau\": %d, ", n++ ? ", " : "", a->id);
        comm_json(out, a->comm);
        fputc('}', out);
    }
    fputs("]}", out);
}

/* The elements of "lines", then those of "profiles" (report_json closes
 * the last array). */
static void query_json(FILE *out, const Report *rp, int indent)
{
    const ReportQuery *q = rp->q;
    const Aag *g = rp->g;
    int np = rp->r->np;
    Lines L;
    lines_build(&L, rp);
    char *w = wanted_lines(q, &L);
    int n = 0;
    for (int l = 1; l <= L.n; l++)
        if (w[l]) {
            fprintf(out, "%s\n%*s", n++ ? "," : "", indent + 2, "");
            line_json(out, rp, &L, l);
        }
    if (n)
        fprintf(out, "\n%*s", indent + 1, "");
    free(w);
    fprintf(out, "],\n%*s \"profiles\": [\n%*s", indent, "", indent + 2, "");
    Prof p;
    prof_program(&p, rp);
    prof_json(out, "program", NULL, g->root->line, line_end_of(g->root), g->root->label, &p, 0);
    for (int i = 0; i < q->naau; i++) {
        const Aau *a = g->aau[q->aau[i] - 1];
        fprintf(out, ",\n%*s", indent + 2, "");
        report_aau_json(out, a, np);
        prof_subaag(&p, a, np);
        fprintf(out, ",\n%*s", indent + 2, "");
        prof_json(out, "subtree", a, a->line, line_end_of(a), a->label, &p, 1);
    }
    for (int i = 0; i < q->nrange; i++) {
        char label[64];
        snprintf(label, sizeof label, "lines %d-%d", q->range[i].first, q->range[i].last);
        range_prof(&p, &L, q->range[i].first, q->range[i].last);
        fprintf(out, ",\n%*s", indent + 2, "");
        prof_json(out, "lines", NULL, q->range[i].first, q->range[i].last, label, &p, 0);
    }
    fprintf(out, "\n%*s", indent + 1, "");
    free(L.line);
}

/* ---- CSV --------------------------------------------------------------- */

void report_csv_header(FILE *out)
{
    fputs("np,scope,id,class,line,line_end,aaus,executions,slowest,fastest,mean,imbalance,"
          "computation,communication,overhead,waiting,label\n", out);
}


static void csv_row(FILE *out, int np, const char *scope, const Aau *a, int line, int line_end,
                    const Prof *p, int execs, const char *label)
{
    fprintf(out, "%d,%s,", np, scope);
    if (a)
        fprintf(out, "%d,%s", a->id, aau_class_name[a->cls]);
    else
        putc(',', out);
    fprintf(out, ",%d,%d,%d,", line, line_end, p->naau);
    if (execs)
        report_num(out, p->execs);
    double v[4 + M_N] = {p->slow, p->fast, prof_mean(p), prof_imbalance(p)};
    for (int k = 0; k < M_N; k++)
        v[4 + k] = p->part[k];
    for (int k = 0; k < 4 + M_N; k++) {
        putc(',', out);
        report_num(out, v[k]);
    }
    putc(',', out);
    csv_string(out, label);
    putc('\n', out);
}

void report_csv(FILE *out, const Report *rp)
{
    const ReportQuery *q = report_has_query(rp->q) ? rp->q : NULL;
    const Aag *g = rp->g;
    int np = rp->r->np;
    Prof p;
    prof_program(&p, rp);
    csv_row(out, np, "program", NULL, g->root->line, line_end_of(g->root), &p, 0,
            g->root->label);
    if (!q) {
        for (int i = 0; i < g->naau; i++) {
            const Aau *a = g->aau[i];
            Prof own = {0};
            prof_own(&own, a, np);
            csv_row(out, np, "aau", a, a->line, line_end_of(a), &own, 1, a->label);
        }
        return;
    }
    for (int i = 0; i < q->naau; i++) {
        const Aau *a = g->aau[q->aau[i] - 1];
        Prof own = {0};
        prof_own(&own, a, np);
        csv_row(out, np, "aau", a, a->line, line_end_of(a), &own, 1, a->label);
        prof_subaag(&p, a, np);
        csv_row(out, np, "subtree", a, a->line, line_end_of(a), &p, 1, a->label);
    }
    Lines L;
    lines_build(&L, rp);
    for (int i = 0; i < q->nrange; i++) {
        char label[64];
        snprintf(label, sizeof label, "lines %d-%d", q->range[i].first, q->range[i].last);
        range_prof(&p, &L, q->range[i].first, q->range[i].last);
        csv_row(out, np, "lines", NULL, q->range[i].first, q->range[i].last, &p, 0, label);
    }
    char *w = wanted_lines(q, &L);
    for (int l = 1; l <= L.n; l++)
        if (w[l]) {
            char *s = line_dup(rp->src, l);
            csv_row(out, np, "line", NULL, l, l, &L.line[l], 0, s);
            free(s);
        }
    free(w);
    free(L.line);
}

/* ---- callgrind --------------------------------------------------------- */

static const char *unit_name(const SpUnit *u)
{
    return u && u->unit && u->unit->u.unit.id ? u->unit->u.unit.id : "main";
}

/* Costs are whole nanoseconds of the mean time per processor, one cost line
 * per (unit, line); the summary and the totals are the sums of the lines
 * written, so that they agree exactly with what a reader adds up. */
void report_callgrind(FILE *out, const Report *rp, const char *cmd)
{
    const Aag *g = rp->g;
    const PtrVec *units = &g->prog->units;
    const SpUnit *mainu = NULL;
    for (int i = 0; i < units->n && !mainu; i++)
        if (((const SpUnit *)units->v[i])->main)
            mainu = units->v[i];
    if (!mainu && units->n)    /* the application's AAUs go with the first unit */
        mainu = units->v[0];
    int n = source_lines(rp), np = rp->r->np;
    Prof *pl = xcalloc((size_t)n + 1, sizeof *pl);
    long long tot[M_N] = {0};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            fputs("# callgrind format\nversion: 1\n", out);
            fprintf(out, "creator: hpfpredict %s\n", PACKAGE_VERSION);
            fputs("cmd: ", out);
            for (const char *c = cmd; c && *c; c++)
                putc((unsigned char)*c < 0x20 ? ' ' : *c, out);
            fputs("\npart: 1\n", out);
            fprintf(out, "desc: Machine: %s, %d processor%s (SAG unit %s)\n", rp->sag, np,
                    np == 1 ? "" : "s", rp->r->node);
            fprintf(out, "desc: Predicted time: %.0f ns (slowest processor %d)\n",
                    rp->r->total * 1e9, rp->r->slowest);
            fputs("desc: Costs: time of each source line, mean per processor, in ns\n"
                  "positions: line\n"
                  "event: Comp : Computation (ns)\n"
                  "event: Comm : Communication (ns)\n"
                  "event: Ovhd : Overhead (ns)\n"
                  "event: Wait : Waiting (ns)\n"
                  "events: Comp Comm Ovhd Wait\n", out);
            fprintf(out, "summary: %lld %lld %lld %lld\n\nfl=", tot[0], tot[1], tot[2], tot[3]);
            for (const char *c = rp->program; *c; c++)
                putc((unsigned char)*c < 0x20 ? ' ' : *c, out);
            putc('\n', out);
        }
        for (int u = 0; u < units->n; u++) {
            const SpUnit *su = units->v[u];
            memset(pl, 0, ((size_t)n + 1) * sizeof *pl);
            int any = 0;
            for (int i = 0; i < g->naau; i++) {
                const Aau *a = g->aau[i];
                if ((a->unit ? a->unit : mainu) != su)
                    continue;
                prof_own(&pl[aau_line(a, n)], a, np);
                any = 1;
            }
            if (!any)
                continue;
            if (pass == 1)
                fprintf(out, "fn=%s\n", unit_name(su));
            for (int l = 1; l <= n; l++) {
                if (!pl[l].naau)
                    continue;
                long long c[M_N];
                for (int k = 0; k < M_N; k++) {
                    double v = pl[l].part[k] * 1e9;
                    c[k] = isfinite(v) && v > 0 ? llround(v) : 0;
                    if (pass == 0)
                        tot[k] += c[k];
                }
                if (pass == 1)
                    fprintf(out, "%d %lld %lld %lld %lld\n", l, c[0], c[1], c[2], c[3]);
            }
        }
    }
    fprintf(out, "\ntotals: %lld %lld %lld %lld\n", tot[0], tot[1], tot[2], tot[3]);
    free(pl);
}
