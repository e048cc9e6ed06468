/* report.c - the summary and the AAU tree of a prediction, as text and as
 * JSON. The tree shows, per AAU, the time of the slowest processor summed
 * over its executions, and the mean split per processor; compound AAUs
 * include everything below them. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void tree_text(FILE *out, const Aau *a, int np, int depth)
{
    double m[M_N], slow;
    char buf[32];
    report_subtree(a, np, m, &slow);
    fprintf(out, "%12.6f %11.6f %11.6f %11.6f %11.6f  %*s#%d %s %s%s%s\n", slow, m[M_COMP],
            m[M_COMM], m[M_OVHD], m[M_WAIT], 2 * depth, "", a->id, aau_class_name[a->cls],
            lines_of(a, buf), a->label ? "  " : "", a->label ? a->label : "");
    list_text(out, &a->kids, np, depth + 1);
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

void report_text(FILE *out, const Report *rp)
{
    const EngineResult *r = rp->r;
    double tot = r->total > 0 ? r->total : 1;
    fprintf(out, "%s on %s: %d processor%s (SAG unit %s, hypercube dimension %d)\n",
            rp->program, rp->sag, r->np, r->np == 1 ? "" : "s", r->node, r->cube_dim);
    fprintf(out, "predicted time  %.6f s  (slowest processor %d; fastest %.6f s)\n", r->total,
            r->slowest, r->min_total);
    for (int k = 0; k < M_N; k++)
        fprintf(out, "  %-14s %12.6f s  %5.1f%%   mean %12.6f s\n", metric_name[k], r->part[k],
                100.0 * r->part[k] / tot, r->mean[k]);
    fprintf(out, "interpretation: %lld AAU applications, %lld loop iterations extrapolated\n",
            r->aau_visits, r->extrapolated);
    fprintf(out, "\n%12s %11s %11s %11s %11s  %s\n", "slowest(s)", "comp", "comm", "ovhd", "wait",
            "AAU (means per processor)");
    tree_text(out, rp->g->root, r->np, 0);
}

/* ---- JSON ---- */

void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            putc(*p, out);
    }
    putc('"', out);
}

/* %.12g: the parts add up to the total to 1e-11; never "nan" or "inf". */
static void num(FILE *out, double v)
{
    if (!isfinite(v))
        v = 0;
    fprintf(out, "%.12g", v);
}

static void tree_json(FILE *out, const Aau *a, int np, int ind);

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
    num(out, slow);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, ", \"%s\": ", metric_name[k]);
        num(out, m[k]);
    }
    fputs(", \"executions\": ", out);
    num(out, a->execs);
    if (a->kids.n) {
        fprintf(out, ",\n%*s\"kids\": ", ind + 1, "");
        list_json(out, &a->kids, np, ind + 1);
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
    fprintf(out, ", \"np\": %d,\n%*s \"total\": ", r->np, indent, "");
    num(out, r->total);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, ", \"%s\": ", metric_name[k]);
        num(out, r->part[k]);
    }
    fprintf(out, ",\n%*s \"slowest\": %d, \"fastest_total\": ", indent, "", r->slowest);
    num(out, r->min_total);
    fputs(", \"mean\": {", out);
    for (int k = 0; k < M_N; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", metric_name[k]);
        num(out, r->mean[k]);
    }
    fprintf(out, "},\n%*s \"aau\": [\n%*s", indent, "", indent + 2, "");
    tree_json(out, rp->g->root, r->np, indent + 2);
    fprintf(out, "],\n%*s \"lines\": []}", indent, "");
}
