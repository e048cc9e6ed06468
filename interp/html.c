/* html.c - the report page (html.h, doc/outputs.md).
 *
 * Each part of the object is written as it comes, into a string of its
 * own (open_memstream): a point when its prediction is made, the sweep and
 * the ranking at the end. The page is the template of report_page.html
 * (compiled in as html_page_text) with the object put in place of its
 * marker, inside a <script type="application/json">: every "</" of the
 * object is written "<\/" (the same JSON string) so that no text of the
 * program can end that element. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_reason.h"
#include "html.h"
#include "util.h"

extern const char html_page_text[];

struct Html {
    char *program, *sag, *command;
    char **point;
    int n, cap;
    char *sweep, *ranking;
};

Html *html_new(const char *program, const char *sag, const char *command)
{
    Html *h = xcalloc(1, sizeof *h);
    h->program = xstrdup(program);
    h->sag = xstrdup(sag);
    h->command = xstrdup(command ? command : "");
    return h;
}

void html_free(Html *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->n; i++)
        free(h->point[i]);
    free(h->point);
    free(h->sweep);
    free(h->ranking);
    free(h->program);
    free(h->sag);
    free(h->command);
    free(h);
}

static const char *const trace_kind[TR_NKINDS] = {"computation", "overhead", "waiting", "send",
                                                  "receive", "collective"};

/* The keys a point adds to the prediction's object. */
static void point_extra(FILE *out, const Report *rp, void *ctx)
{
    const void *const *x = ctx;
    const EngineProcs *ps = x[0];
    const Trace *t = x[1];
    const char *mapping = x[2];
    const Aag *g = rp->g;
    int np = rp->r->np;
    double mt = 0;
    for (int k = 0; k < M_N; k++)
        mt += rp->r->mean[k];
    if (mapping) {
        fputs(",\n \"mapping\": ", out);
        json_string(out, mapping);
    }
    fputs(",\n \"imbalance\": ", out);
    report_num(out, rp->r->total > 0 ? (rp->r->total - mt) / rp->r->total : 0);
    fputs(",\n \"aaus\": [", out);
    for (int i = 0; i < g->naau; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        report_aau_json(out, g->aau[i], np);
    }
    fputs("],\n \"communications\": [", out);
    for (int i = 0; i < g->ncomm; i++) {
        const CommEntry *e = g->comm[i];
        char *why = comm_reason(e);
        fprintf(out, "%s{\"comm\": %d, \"aau\": %d, \"line\": %d, \"kind\": ", i ? ",\n  " : "\n  ",
                e->id, e->aau->id, e->line);
        json_string(out, comm_kind_words(e));
        fputs(", \"pattern\": ", out);
        json_string(out, pattern_name[e->pat]);
        fputs(", \"array\": ", out);
        if (e->arr)
            json_string(out, e->arr->name);
        else
            fputs("null", out);
        fputs(", \"reason\": ", out);
        json_string(out, why);
        fputs(", \"from\": ", out);
        if (e->src)
            fprintf(out, "%d", e->src->id);
        else
            fputs("null", out);
        fputs(", \"to\": ", out);
        if (e->dst)
            fprintf(out, "%d", e->dst->id);
        else
            fputs("null", out);
        fputc('}', out);
        free(why);
    }
    fputs("],\n \"processors\": ", out);
    if (ps && ps->n) {
        int classes = 0;
        for (int p = 0; p < ps->n; p++)
            classes |= ps->p[p].count != 1;
        fprintf(out, "{\"classes\": %s, \"list\": [", classes ? "true" : "false");
        for (int p = 0; p < ps->n; p++) {
            fprintf(out, "%s{\"rank\": %d, \"count\": ", p ? ",\n  " : "\n  ", ps->p[p].rank);
            report_num(out, ps->p[p].count);
            fputs(", \"total\": ", out);
            report_num(out, ps->p[p].total);
            for (int k = 0; k < M_N; k++) {
                fprintf(out, ", \"%s\": ", metric_name[k]);
                report_num(out, ps->p[p].part[k]);
            }
            fputc('}', out);
        }
        fputs("]}", out);
    } else {
        fputs("null", out);
    }
    fputs(",\n \"trace\": ", out);
    if (t) {
        int shown = t->np < HTML_TRACE_PROCS ? t->np : HTML_TRACE_PROCS;
        long kept = 0, left = 0;
        fprintf(out, "{\"np\": %d, \"processors\": %d, \"kinds\": [", t->np, shown);
        for (int k = 0; k < TR_NKINDS; k++)
            fprintf(out, "%s\"%s\"", k ? ", " : "", trace_kind[k]);
        fputs("],\n  \"events\": [", out);
        for (long i = 0; i < t->n; i++) {
            const TraceEvent *e = &t->ev[i];
            if (e->proc >= shown)
                continue;
            if (kept == HTML_TRACE_EVENTS) {
                left++;
                continue;
            }
            fprintf(out, "%s[%d, %d, ", kept++ ? ",\n   " : "\n   ", e->proc, (int)e->kind);
            report_num(out, e->t0);
            fputs(", ", out);
            report_num(out, e->t1);
            fprintf(out, ", %d, %d]", e->line, e->aau);
        }
        fprintf(out, "], \"left_out\": %ld, \"dropped\": %ld}", left, t->dropped);
    } else {
        fputs("null", out);
    }
}

void html_point(Html *h, const Report *rp, const EngineProcs *ps, const Trace *t,
                const char *mapping)
{
    ReportQuery q = {0};
    q.annotate = 1;
    Report r = *rp;
    const void *ctx[3] = {ps, t, mapping};
    r.q = &q;
    r.extra = point_extra;
    r.extra_ctx = ctx;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        fatal("out of memory");
    report_json(out, &r, 0);
    if (fclose(out) != 0)
        fatal("out of memory");
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 8;
        h->point = xrealloc(h->point, (size_t)h->cap * sizeof *h->point);
    }
    h->point[h->n++] = buf;
}

void html_sweep(Html *h, const Sweep *sw)
{
    char *svg = NULL, *buf = NULL;
    size_t nsvg = 0, len = 0;
    FILE *s = open_memstream(&svg, &nsvg), *out = open_memstream(&buf, &len);
    if (!s || !out)
        fatal("out of memory");
    int bad = sweep_svg(s, sw) != 0;
    if (fclose(s) != 0)
        fatal("out of memory");
    fputs("{\"table\": [", out);
    for (int i = 0; i < sw->n; i++) {
        const SweepPoint *p = &sw->pt[i];
        double base = 0;
        int bnp = 0;
        for (int j = 0; j < sw->n; j++)   /* the smallest count of the same label */
            if (!strcmp(sw->pt[j].label ? sw->pt[j].label : "", p->label ? p->label : "")
                && (!bnp || sw->pt[j].np < bnp)) {
                bnp = sw->pt[j].np;
                base = sw->pt[j].total;
            }
        fprintf(out, "%s{\"label\": ", i ? ",\n  " : "\n  ");
        json_string(out, p->label ? p->label : "");
        fprintf(out, ", \"np\": %d, \"total\": ", p->np);
        report_num(out, p->total);
        for (int k = 0; k < M_N; k++) {
            fprintf(out, ", \"%s\": ", metric_name[k]);
            report_num(out, p->part[k]);
        }
        fputs(", \"speedup\": ", out);
        if (p->total > 0 && base > 0) {
            report_num(out, base / p->total);
            fputs(", \"efficiency\": ", out);
            report_num(out, base / p->total * bnp / p->np);
        } else {
            fputs("null, \"efficiency\": null", out);
        }
        fputc('}', out);
    }
    fputs("],\n \"svg\": ", out);
    if (bad)
        fputs("null", out);
    else
        json_string(out, svg);
    fputc('}', out);
    if (fclose(out) != 0)
        fatal("out of memory");
    free(svg);
    free(h->sweep);
    h->sweep = buf;
}

void html_ranking(Html *h, char *json)
{
    free(h->ranking);
    h->ranking = json;
}

void html_object(const Html *h, FILE *out)
{
    fputs("{\"report\": \"hpfpredict\", \"version\": 1, \"program\": ", out);
    json_string(out, h->program);
    fputs(", \"sag\": ", out);
    json_string(out, h->sag);
    fputs(", \"command\": ", out);
    json_string(out, h->command);
    fputs(",\n\"points\": [", out);
    for (int i = 0; i < h->n; i++) {
        fputs(i ? ",\n" : "\n", out);
        fputs(h->point[i], out);
    }
    fputs("],\n\"sweep\": ", out);
    fputs(h->sweep ? h->sweep : "null", out);
    fputs(",\n\"ranking\": ", out);
    fputs(h->ranking ? h->ranking : "null", out);
    fputs("}\n", out);
}

/* s, with every "</" written "<\/". */
static void put_escaped(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<' && i + 1 < n && s[i + 1] == '/') {
            fputs("<\\", out);
            continue;
        }
        putc(s[i], out);
    }
}

int html_page(const Html *h, FILE *out)
{
    static const char marker[] = "<!-- hpfpredict:data -->";
    const char *at = strstr(html_page_text, marker);
    if (!at)
        return -1;
    char *obj = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&obj, &len);
    if (!s)
        fatal("out of memory");
    html_object(h, s);
    if (fclose(s) != 0)
        fatal("out of memory");
    fwrite(html_page_text, 1, (size_t)(at - html_page_text), out);
    put_escaped(out, obj, len);
    fputs(at + sizeof marker - 1, out);
    free(obj);
    return ferror(out) ? -1 : 0;
}
