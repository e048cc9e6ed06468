/* forecast_plot.c - the forecast diagrams of Armstrong & Eigenmann ([A]
 * Figures 5-8, [B] Figures 3-6) as one standalone SVG 1.1 document: time
 * against processors on log-log axes, one curve per phase, a panel per
 * component; the phases' totals with their sweet spots; and a map of
 * processors against data size shaded by the logarithm of the time. See
 * forecast_run.h. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "forecast_run.h"

enum { W = 900, PW = 380, PH = 260, ML = 70, MT = 40 };

static const char *const colour[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
};
enum { NCOLOUR = sizeof colour / sizeof colour[0] };
enum { K_IO = RUE_NKIND };     /* reads and writes together */

static void text_esc(FILE *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, out);
        }
}

/* The points of the first -D combination: [0, n). */
static int first_group(const ForecastPlot *p)
{
    int n = 0;
    while (n < p->n && !strcmp(p->pt[n].label, p->pt[0].label))
        n++;
    return n;
}

/* The value drawn for point i of curve c in a panel: kind k of phase c
 * (k < 0: its total; c < 0: the program's). */
static double value(const FPoint *q, int c, int k)
{
    if (k == K_IO)
        return value(q, c, RUE_READ) + value(q, c, RUE_WRITE);
    if (c < 0)
        return k < 0 ? q->total : q->part[k];
    return k < 0 ? q->ptotal[c] : q->ppart[c][k];
}

/* A log-log panel at (x0, y0): the curves of every phase (kind k), the
 * least time of each marked when mark. Returns whether it drew a curve. */
static int panel(FILE *out, const ForecastPlot *p, int n, int x0, int y0, const char *title,
                 int k, int mark)
{
    double lo = INFINITY, hi = 0;
    double pmin = p->pt[0].np, pmax = p->pt[0].np;
    for (int i = 0; i < n; i++) {
        if (p->pt[i].np < pmin)
            pmin = p->pt[i].np;
        if (p->pt[i].np > pmax)
            pmax = p->pt[i].np;
        for (int c = 0; c < p->r->nphase; c++) {
            double v = value(&p->pt[i], c, k);
            if (v > 0 && v < lo)
                lo = v;
            if (v > hi)
                hi = v;
        }
    }
    fprintf(out, "<g transform=\"translate(%d,%d)\">\n", x0, y0);
    fprintf(out, "<text x=\"%d\" y=\"-12\" font-size=\"13\" text-anchor=\"middle\">", PW / 2);
    text_esc(out, title);
    fputs("</text>\n", out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#444\"/>\n", PW, PH);
    if (!(hi > 0)) {
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">"
                "none</text>\n</g>\n", PW / 2, PH / 2);
        return 0;
    }
    double ly0 = floor(log10(lo)), ly1 = ceil(log10(hi));
    if (ly1 <= ly0)
        ly1 = ly0 + 1;
    double lx0 = log2(pmin), lx1 = log2(pmax);
    if (lx1 <= lx0)
        lx1 = lx0 + 1;
#define XS(np) ((log2(np) - lx0) / (lx1 - lx0) * PW)
#define YS(v) (PH - (log10(v) - ly0) / (ly1 - ly0) * PH)
    for (double e = ly0; e <= ly1; e++) {
        double y = YS(pow(10, e));
        fprintf(out, "<line x1=\"0\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"-6\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">1e%g s</text>\n",
                y, PW, y, y + 3, e);
    }
    for (int i = 0; i < n; i++) {
        double x = XS(p->pt[i].np);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%d"
                "</text>\n", x, PH + 14, p->pt[i].np);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">processors"
            "</text>\n", PW / 2, PH + 30);
    int drew = 0;
    for (int c = 0; c < p->r->nphase; c++) {
        const char *col = colour[c % NCOLOUR];
        int started = 0, best = -1;
        for (int i = 0; i < n; i++) {
            double v = value(&p->pt[i], c, k);
            if (!(v > 0))
                continue;
            if (best < 0 || v < value(&p->pt[best], c, k))
                best = i;
            if (!started)
                fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                        "points=\"", col);
            fprintf(out, "%s%.1f,%.1f", started ? " " : "", XS(p->pt[i].np), YS(v));
            started = 1;
        }
        if (started) {
            fputs("\"/>\n", out);
            drew = 1;
        }
        if (mark && best >= 0)
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\" "
                    "stroke-width=\"2\"><title>sweet spot of %s: %d processors</title></circle>\n",
                    XS(p->pt[best].np), YS(value(&p->pt[best], c, k)), col,
                    p->r->phase[c], p->pt[best].np);
    }
#undef XS
#undef YS
    fputs("</g>\n", out);
    return drew;
}

/* The map of one component: processors across, -D combinations down, each
 * cell shaded by log10 of the program's time of kind k (k < 0: total). */
static void map_panel(FILE *out, const ForecastPlot *p, int per, int x0, int y0,
                      const char *title, int k)
{
    int rows = p->n / per;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < p->n; i++) {
        double v = value(&p->pt[i], -1, k);
        if (v > 0) {
            lo = fmin(lo, log10(v));
            hi = fmax(hi, log10(v));
        }
    }
    fprintf(out, "<g transform=\"translate(%d,%d)\">\n<text x=\"%d\" y=\"-12\" font-size=\"13\" "
            "text-anchor=\"middle\">", x0, y0, PW / 2);
    text_esc(out, title);
    fputs("</text>\n", out);
    double cw = (double)PW / per, ch = (double)PH / rows;
    for (int i = 0; i < p->n; i++) {
        int row = i / per, col = i % per;
        double v = value(&p->pt[i], -1, k);
        char fill[16] = "#ffffff";
        if (v > 0 && hi >= lo) {
            double t = hi > lo ? (log10(v) - lo) / (hi - lo) : 0.5;
            /* light yellow (fast) to dark red (slow) */
            int r = (int)(255 - 120 * t), g = (int)(245 - 225 * t), b = (int)(200 - 180 * t);
            snprintf(fill, sizeof fill, "#%02x%02x%02x", r, g, b);
        }
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                "stroke=\"#fff\"><title>", col * cw, row * ch, cw, ch, fill);
        text_esc(out, p->pt[i].label);
        fprintf(out, " np=%d: %.4g s</title></rect>\n", p->pt[i].np, v);
    }
    for (int c = 0; c < per; c++)
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%d"
                "</text>\n", (c + 0.5) * cw, PH + 14, p->pt[c].np);
    for (int row = 0; row < rows; row++) {
        fprintf(out, "<text x=\"-6\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">",
                (row + 0.5) * ch + 3);
        text_esc(out, p->pt[row * per].label);
        fputs("</text>\n", out);
    }
    if (hi >= lo)
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">"
                "processors; shade: log10 seconds, %.2g (light) to %.2g (dark)</text>\n",
                PW / 2, PH + 30, lo, hi);
    fputs("</g>\n", out);
}

int forecast_svg(FILE *out, const ForecastPlot *p)
{
    if (!p->n || !p->r->nphase)
        return -1;
    int n = first_group(p);
    int groups = p->n / n;
    int io = 0;
    for (int i = 0; i < p->n; i++)
        if (p->pt[i].part[RUE_READ] + p->pt[i].part[RUE_WRITE] > 0)
            io = 1;
    int npanel = 3 + io, rows_lines = (npanel + 1) / 2;
    int nmap = groups > 1 ? 3 + io : 0, rows_map = (nmap + 1) / 2;
    int legend = 20 + 16 * p->r->nphase;
    int height = MT + (rows_lines + rows_map) * (PH + 80) + legend;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/"
            "2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, height, W, height);
    fprintf(out, "<text x=\"%d\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">forecast of ",
            W / 2);
    text_esc(out, p->program);
    fputs(" on ", out);
    text_esc(out, p->sag);
    if (*p->pt[0].label) {
        fputs(" (curves: ", out);
        text_esc(out, p->pt[0].label);
        fputc(')', out);
    }
    fputs("</text>\n", out);
    static const char *const ptitle[] = {"computation per phase", "communication per phase",
                                         "total per phase, sweet spots circled",
                                         "disk I/O per phase"};
    static const int pkind[] = {RUE_COMP, RUE_COMM, -1, K_IO};
    int y = MT + 20;
    for (int i = 0; i < npanel; i++) {
        int x = i % 2 ? ML + PW + 80 : ML;
        panel(out, p, n, x, y, ptitle[i], pkind[i], pkind[i] < 0);
        if (i % 2)
            y += PH + 80;
    }
    if (npanel % 2)
        y += PH + 80;
    static const char *const mtitle[] = {"computation: processors against data size",
                                         "communication: processors against data size",
                                         "total: processors against data size",
                                         "disk I/O: processors against data size"};
    for (int i = 0; i < nmap; i++) {
        int x = i % 2 ? ML + PW + 80 : ML + 40;
        map_panel(out, p, n, x, y, mtitle[i], pkind[i]);
        if (i % 2)
            y += PH + 80;
    }
    if (nmap % 2)
        y += PH + 80;
    for (int c = 0; c < p->r->nphase; c++) {
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"4\" fill=\"%s\"/>"
                "<text x=\"%d\" y=\"%d\" font-size=\"11\">phase %d: ", ML, y + 16 * c,
                colour[c % NCOLOUR], ML + 24, y + 16 * c + 5, c + 1);
        text_esc(out, p->r->phase[c]);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
