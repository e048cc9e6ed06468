/* plot.c - a prediction sweep as plots and tables (plot.h): the SVG of
 * time against processors and of the stacked splits, written by hand as
 * XML text, and the text, CSV and JSON tables with speedup and efficiency.
 * Every output walks the same order: the labels in the order they first
 * appear, each label's points by processor count. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "util.h"

const char *const sweep_part_name[SWEEP_NPART] = {"computation", "communication", "overhead",
                                                  "waiting"};

/* ---- checking and ordering ---- */

const char *sweep_invalid(const Sweep *s)
{
    if (!s || s->n < 0)
        return "the sweep has a negative number of points";
    if (s->n > 0 && !s->pt)
        return "the sweep has points but no array of them";
    for (int i = 0; i < s->n; i++) {
        const SweepPoint *p = &s->pt[i];
        if (p->np < 1)
            return "a processor count is below 1";
        if (!isfinite(p->total))
            return "a total time is not finite";
        for (int k = 0; k < SWEEP_NPART; k++)
            if (!isfinite(p->part[k]))
                return "a part of a time is not finite";
    }
    return NULL;
}

static const char *label_of(const SweepPoint *p)
{
    return p->label ? p->label : "";
}

typedef struct {
    const SweepPoint *p;
    int lab;                   /* its label's number, in order of appearance */
    int idx;                   /* its place in the input, to keep ties stable */
} Item;

/* The points in output order, cut into one run per label. */
typedef struct {
    Item *it;
    int n, nlab;
    int *first;                /* nlab + 1: where each label's run starts */
} Order;

static int item_cmp(const void *a, const void *b)
{
    const Item *x = a, *y = b;
    if (x->lab != y->lab)
        return x->lab < y->lab ? -1 : 1;
    if (x->p->np != y->p->np)
        return x->p->np < y->p->np ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void order_free(Order *o)
{
    free(o->it);
    free(o->first);
}

/* Sorts a copy: the caller's array stays as it was. Labels are matched by
 * a linear search, as a sweep has a handful of them. */
static int order_make(Order *o, const Sweep *s)
{
    o->n = s->n;
    o->nlab = 0;
    o->it = malloc((s->n ? s->n : 1) * sizeof *o->it);
    o->first = malloc((s->n + 1) * sizeof *o->first);
    if (!o->it || !o->first) {
        order_free(o);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        int lab = -1;
        for (int j = 0; j < i && lab < 0; j++)
            if (strcmp(label_of(&s->pt[j]), label_of(&s->pt[i])) == 0)
                lab = o->it[j].lab;
        o->it[i] = (Item){&s->pt[i], lab < 0 ? o->nlab++ : lab, i};
    }
    qsort(o->it, s->n, sizeof *o->it, item_cmp);
    for (int i = 0, l = 0; l <= o->nlab; l++) {
        while (i < o->n && o->it[i].lab < l)
            i++;
        o->first[l] = i;
    }
    return 0;
}

/* Speedup and efficiency of the i-th point against its label's first
 * (smallest np); 0 when they have no value (a total of 0 to divide by). */
static int speedup(const Order *o, int i, double *sp, double *eff)
{
    const SweepPoint *b = o->it[o->first[o->it[i].lab]].p, *p = o->it[i].p;
    if (p == b)
        *sp = 1;
    else if (p->total > 0)
        *sp = b->total / p->total;
    else
        return 0;
    *eff = *sp * b->np / p->np;
    return isfinite(*sp) && isfinite(*eff);
}

static int any_label(const Order *o)
{
    for (int i = 0; i < o->n; i++)
        if (*label_of(o->it[i].p))
            return 1;
    return 0;
}

/* ---- UTF-8 ---- */

/* The length of the well-formed UTF-8 sequence at p, or 0. U+FFFE and
 * U+FFFF count as malformed, as XML does not allow them. */
static int utf8_seq(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xBF)
            return 0;
    if (c == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))
        return 0;
    return n;
}

/* Characters, to estimate widths: a byte that is not a continuation byte
 * starts one. */
static int text_chars(const char *s)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

/* The width of a text in pixels at a font size, for a sans-serif font:
 * generous, so that what is laid out from it does not overlap. */
static double text_w(const char *s, double size)
{
    return text_chars(s) * size * 0.62;
}

/* ---- text ---- */

/* A label in the text table: control characters would break the rows. */
static void put_plain(FILE *out, const char *s, int width)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        putc(*p < 0x20 || *p == 0x7F ? '?' : *p, out);
        n += (*p & 0xC0) != 0x80;
    }
    for (; n < width; n++)
        putc(' ', out);
}

static int finish(FILE *out)
{
    return ferror(out) ? -1 : 0;
}

int sweep_table_text(FILE *out, const Sweep *s)
{
    Order o;
    if (sweep_invalid(s) || order_make(&o, s) < 0)
        return -1;
    int lw = 0;
    if (any_label(&o)) {
        lw = 5;
        for (int i = 0; i < o.n; i++) {
            int w = text_chars(label_of(o.it[i].p));
            lw = w > lw ? w : lw;
        }
    }
    fputs("sweep of ", out);
    put_plain(out, s->program, 0);
    fputs(" on ", out);
    put_plain(out, s->sag, 0);
    fputs(" (seconds; the parts are the slowest processor's)\n", out);
    if (lw) {
        put_plain(out, "label", lw);
        fputs("  ", out);
    }
    fprintf(out, "%6s %12s %11s %11s %11s %11s %8s %10s\n", "np", "total", "comp", "comm", "ovhd",
            "wait", "speedup", "efficiency");
    for (int i = 0; i < o.n; i++) {
        const SweepPoint *p = o.it[i].p;
        if (i && o.it[i].lab != o.it[i - 1].lab)
            putc('\n', out);
        if (lw) {
            put_plain(out, label_of(p), lw);
            fputs("  ", out);
        }
        fprintf(out, "%6d %12.6f %11.6f %11.6f %11.6f %11.6f", p->np, p->total,
                p->part[SWEEP_COMP], p->part[SWEEP_COMM], p->part[SWEEP_OVHD],
                p->part[SWEEP_WAIT]);
        double sp, eff;
        if (speedup(&o, i, &sp, &eff))
            fprintf(out, " %8.3f %10.3f\n", sp, eff);
        else
            fprintf(out, " %8s %10s\n", "-", "-");
    }
    order_free(&o);
    return finish(out);
}

/* ---- CSV and JSON ---- */

/* %.12g, as the reports print: the parts add up to the total to 1e-11. */
static void num(FILE *out, double v)
{
    fprintf(out, "%.12g", v);
}


int sweep_table_csv(FILE *out, const Sweep *s)
{
    Order o;
    if (sweep_invalid(s) || order_make(&o, s) < 0)
        return -1;
    fputs("label,np,total", out);
    for (int k = 0; k < SWEEP_NPART; k++)
        fprintf(out, ",%s", sweep_part_name[k]);
    fputs(",speedup,efficiency\n", out);
    for (int i = 0; i < o.n; i++) {
        const SweepPoint *p = o.it[i].p;
        csv_string(out, label_of(p));
        fprintf(out, ",%d,", p->np);
        num(out, p->total);
        for (int k = 0; k < SWEEP_NPART; k++) {
            putc(',', out);
            num(out, p->part[k]);
        }
        double sp, eff;
        if (speedup(&o, i, &sp, &eff)) {
            putc(',', out);
            num(out, sp);
            putc(',', out);
            num(out, eff);
        } else
            fputs(",,", out);
        putc('\n', out);
    }
    order_free(&o);
    return finish(out);
}


int sweep_table_json(FILE *out, const Sweep *s)
{
    Order o;
    if (sweep_invalid(s) || order_make(&o, s) < 0)
        return -1;
    fputs("{\"program\": ", out);
    json_string(out, s->program);
    fputs(", \"sag\": ", out);
    json_string(out, s->sag);
    fputs(", \"points\": [", out);
    for (int i = 0; i < o.n; i++) {
        const SweepPoint *p = o.it[i].p;
        fputs(i ? ",\n  {\"label\": " : "\n  {\"label\": ", out);
        json_string(out, label_of(p));
        fprintf(out, ", \"np\": %d, \"total\": ", p->np);
        num(out, p->total);
        for (int k = 0; k < SWEEP_NPART; k++) {
            fprintf(out, ", \"%s\": ", sweep_part_name[k]);
            num(out, p->part[k]);
        }
        double sp, eff;
        if (speedup(&o, i, &sp, &eff)) {
            fputs(", \"speedup\": ", out);
            num(out, sp);
            fputs(", \"efficiency\": ", out);
            num(out, eff);
        } else
            fputs(", \"speedup\": null, \"efficiency\": null", out);
        putc('}', out);
    }
    fputs(o.n ? "\n]}\n" : "]}\n", out);
    order_free(&o);
    return finish(out);
}

/* ---- SVG: text and numbers ---- */

/* Text content or an attribute value: the five XML specials as entities;
 * control characters and malformed UTF-8, which no XML document may hold,
 * as '?'. */
static void xml_text(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        int n = utf8_seq(p);
        if (n == 0) {
            putc('?', out);
            p++;
        } else if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            switch (*p) {
            case '&': fputs("&amp;", out); break;
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '"': fputs("&quot;", out); break;
            case '\'': fputs("&apos;", out); break;
            default:
                putc(*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r' ? '?' : *p, out);
            }
            p++;
        }
    }
}

/* A time for a tooltip, in the unit that suits it. */
static void fmt_time(char *buf, size_t n, double v)
{
    double a = fabs(v);
    if (a == 0)
        snprintf(buf, n, "0 s");
    else if (a >= 1)
        snprintf(buf, n, "%.4g s", v);
    else if (a >= 1e-3)
        snprintf(buf, n, "%.4g ms", v * 1e3);
    else if (a >= 1e-6)
        snprintf(buf, n, "%.4g \xc2\xb5s", v * 1e6);
    else
        snprintf(buf, n, "%.4g ns", v * 1e9);
}

/* 1, 2 or 5 times a power of ten, at least raw. */
static double nice_step(double raw)
{
    if (!(raw > 0))
        return 1;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10) * mag;
}

/* The time axis: from 0 to a multiple of a nice step at or above the
 * largest value (1 s when every value is 0), in one SI unit throughout. */
typedef struct {
    double top, step;
    int ntick;                 /* ticks 0 .. ntick, at k * step */
    double scale;              /* seconds per unit */
    const char *unit;
    int dec;                   /* decimals of the tick labels */
} YAxis;

static int y_axis(YAxis *y, double vmax)
{
    if (!(vmax > 0))
        vmax = 1;
    y->step = nice_step(vmax / 6);
    y->ntick = (int)ceil(vmax / y->step - 1e-9);
    if (y->ntick < 1)
        y->ntick = 1;
    y->top = y->ntick * y->step;
    if (!isfinite(y->top) || !(y->top > 0))
        return -1;
    if (y->top >= 1)
        y->scale = 1, y->unit = "s";
    else if (y->top >= 1e-3)
        y->scale = 1e-3, y->unit = "ms";
    else if (y->top >= 1e-6)
        y->scale = 1e-6, y->unit = "\xc2\xb5s";
    else
        y->scale = 1e-9, y->unit = "ns";
    double d = y->step / y->scale;
    y->dec = d >= 1 ? 0 : (int)ceil(-log10(d) - 1e-9);
    return 0;
}

static void y_label(char *buf, size_t n, const YAxis *y, int k)
{
    double v = k * y->step / y->scale;
    if (k == 0)
        snprintf(buf, n, "0");
    else if (v >= 1e6)
        snprintf(buf, n, "%.6g %s", v, y->unit);
    else
        snprintf(buf, n, "%.*f %s", y->dec, v, y->unit);
}

/* The processor axis: base-2 logarithmic (in exponents) when the counts
 * span more than a factor 4, the ticks at the powers of two in the range;
 * else linear with nice integer steps. */
enum { XTICK_MAX = 64 };
typedef struct {
    int log;
    double lo, hi;             /* the range, in counts or exponents */
    double tick[XTICK_MAX];    /* in counts */
    int ntick;
} XAxis;

static void x_axis(XAxis *x, int npmin, int npmax)
{
    x->log = npmax > 4.0 * npmin;
    x->ntick = 0;
    if (x->log) {
        x->lo = floor(log2(npmin));
        x->hi = ceil(log2(npmax));
        for (double e = x->lo; e <= x->hi && x->ntick < XTICK_MAX; e++)
            x->tick[x->ntick++] = pow(2, e);
        return;
    }
    double step = 1;
    if (npmax == npmin) {
        x->lo = npmin > 1 ? npmin - 1 : 0;
        x->hi = (double)npmax + 1;
    } else {
        step = nice_step((npmax - (double)npmin) / 5);
        if (step < 1)
            step = 1;
        x->lo = floor(npmin / step) * step;
        x->hi = ceil(npmax / step) * step;
    }
    for (int k = 0; x->lo + k * step <= x->hi + 1e-9 && x->ntick < XTICK_MAX; k++)
        x->tick[x->ntick++] = x->lo + k * step;
}

/* ---- SVG: layout ---- */

/* Okabe and Ito's colour-blind-safe palette, the curves' colours in turn:
 * the strongest first, the light yellow and the black left for sweeps of
 * many labels. */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#F0E442", "#000000"};
enum { NPAL = sizeof palette / sizeof palette[0] };

/* Past the palette, the dashes and the markers change with each round. */
static const char *const dashes[] = {NULL, "7 4", "2 3", "9 3 2 3"};
enum { NDASH = sizeof dashes / sizeof dashes[0] };

/* The parts' colours, from the same palette. */
static const char *const part_colour[SWEEP_NPART] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7"};

enum {
    ML = 84,                   /* left margin: the time labels */
    MR = 16,
    LEGEND_GAP = 24,
    ROW = 20,                  /* a legend's rows */
    MIN_PW = 600,              /* plot width */
    MIN_PH = 280,              /* plot height */
    SLOT_MIN = 28,             /* a bar's share of the bar panel, at least */
    GROUP_GAP = 20,
};

typedef struct {
    const Order *o;
    double W, H, pw;
    double t1, b1, t2, b2;     /* the two plot areas' top and bottom */
    double legx;
    XAxis x;
    YAxis y1, y2;
    double *barx;              /* each point's bar centre */
    double *groupx;            /* each label's centre under the bars */
    double barw;
} Layout;

static double px(const Layout *L, double np)
{
    const XAxis *x = &L->x;
    double v = x->log ? log2(np) : np;
    double pad = 16;
    double span = x->hi > x->lo ? x->hi - x->lo : 1;
    return ML + pad + (v - x->lo) / span * (L->pw - 2 * pad);
}

static double py(double v, double top, double bottom, const YAxis *y)
{
    if (!(v > 0))
        v = 0;
    return bottom - v / y->top * (bottom - top);
}

/* The legend text of a label: a sweep over processors alone has one curve
 * and no label to show. */
static const char *legend_text(const char *label)
{
    return *label ? label : "predicted time";
}

static int layout(Layout *L, const Order *o)
{
    L->o = o;
    L->barx = malloc((o->n ? o->n : 1) * sizeof *L->barx);
    L->groupx = malloc((o->nlab ? o->nlab : 1) * sizeof *L->groupx);
    if (!L->barx || !L->groupx)
        return -1;

    int npmin = 1, npmax = 1, maxdig = 1;
    double vmax1 = 0, vmax2 = 0;
    for (int i = 0; i < o->n; i++) {
        const SweepPoint *p = o->it[i].p;
        if (i == 0 || p->np < npmin)
            npmin = p->np;
        if (i == 0 || p->np > npmax)
            npmax = p->np;
        double stack = 0;
        for (int k = 0; k < SWEEP_NPART; k++)
            stack += p->part[k] > 0 ? p->part[k] : 0;
        vmax1 = p->total > vmax1 ? p->total : vmax1;
        vmax2 = stack > vmax2 ? stack : vmax2;
    }
    vmax2 = vmax1 > vmax2 ? vmax1 : vmax2;
    x_axis(&L->x, npmin, npmax);
    if (y_axis(&L->y1, vmax1) < 0 || y_axis(&L->y2, vmax2) < 0)
        return -1;
    for (int v = npmax; v >= 10; v /= 10)
        maxdig++;

    /* The bars in natural units, then stretched to the plot's width: each
     * label's group as wide as its bars or its name, whichever is wider. */
    double slot = text_w("0", 10) * maxdig + 8;
    slot = slot > SLOT_MIN ? slot : SLOT_MIN;
    double xs = GROUP_GAP;
    for (int l = 0; l < o->nlab; l++) {
        int cnt = o->first[l + 1] - o->first[l];
        const char *lab = label_of(o->it[o->first[l]].p);
        double gw = cnt * slot, tw = text_w(lab, 11) + 8;
        gw = gw > tw ? gw : tw;
        double off = (gw - cnt * slot) / 2;
        for (int j = 0; j < cnt; j++)
            L->barx[o->first[l] + j] = xs + off + (j + 0.5) * slot;
        L->groupx[l] = xs + gw / 2;
        xs += gw + GROUP_GAP;
    }
    L->pw = xs > MIN_PW ? xs : MIN_PW;
    double f = L->pw / xs;
    for (int i = 0; i < o->n; i++)
        L->barx[i] = ML + L->barx[i] * f;
    for (int l = 0; l < o->nlab; l++)
        L->groupx[l] = ML + L->groupx[l] * f;
    L->barw = slot * 0.7 * f;
    L->barw = L->barw < 56 ? L->barw : 56;

    /* The legends' column: as wide as their longest entry. */
    double lw = text_w("slowest processor (total)", 12);
    for (int l = 0; l < o->nlab; l++) {
        double w = text_w(legend_text(label_of(o->it[o->first[l]].p)), 12);
        lw = w > lw ? w : lw;
    }
    L->legx = ML + L->pw + LEGEND_GAP;
    L->W = ceil(L->legx + 40 + lw + MR);

    double ph1 = o->nlab * ROW + 10;
    ph1 = ph1 > MIN_PH ? ph1 : MIN_PH;
    L->t1 = 96;
    L->b1 = L->t1 + ph1;
    L->t2 = L->b1 + 96;
    L->b2 = L->t2 + MIN_PH;
    L->H = L->b2 + 64;
    return 0;
}

/* ---- SVG: drawing ---- */

static void text_at(FILE *out, double x, double y, const char *anchor, int size,
                    const char *extra, const char *s)
{
    fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%d\"", x, y, size);
    if (anchor)
        fprintf(out, " text-anchor=\"%s\"", anchor);
    if (extra)
        fprintf(out, " %s", extra);
    putc('>', out);
    xml_text(out, s);
    fputs("</text>\n", out);
}

/* The frame, the time grid and its labels, and the axis titles. */
static void axes(FILE *out, const Layout *L, double top, double bottom, const YAxis *y,
                 const char *xtitle)
{
    char buf[64];
    fprintf(out, "<path d=\"M%d %.2fH%.2f\" stroke=\"#dddddd\" fill=\"none\"/>\n", ML, top,
            ML + L->pw);
    for (int k = 0; k <= y->ntick; k++) {
        double yy = bottom - (double)k / y->ntick * (bottom - top);
        if (k > 0 && k < y->ntick)
            fprintf(out, "<path d=\"M%d %.2fH%.2f\" stroke=\"#dddddd\" fill=\"none\"/>\n", ML,
                    yy, ML + L->pw);
        fprintf(out, "<path d=\"M%d %.2fh-5\" stroke=\"#333333\" fill=\"none\"/>\n", ML, yy);
        y_label(buf, sizeof buf, y, k);
        text_at(out, ML - 8, yy + 4, "end", 11, NULL, buf);
    }
    fprintf(out, "<path d=\"M%d %.2fV%.2fH%.2f\" stroke=\"#333333\" fill=\"none\"/>\n", ML, top,
            bottom, ML + L->pw);
    snprintf(buf, sizeof buf, "transform=\"rotate(-90 %.2f %.2f)\"", 16.0, (top + bottom) / 2);
    text_at(out, 16, (top + bottom) / 2, "middle", 12, buf, "time");
    text_at(out, ML + L->pw / 2, bottom + 50, "middle", 12, NULL, xtitle);
}

/* A point's marker: circle, square, triangle or diamond, by the round of
 * the palette its label's colour is in; with a tooltip when tip is given
 * (the label, if any, before it). */
static void marker(FILE *out, int shape, double x, double y, const char *colour,
                   const char *label, const char *tip)
{
    const char *elem = shape == 0 ? "circle" : "path";
    if (shape == 0)
        fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\"", x, y);
    else if (shape == 1)
        fprintf(out, "<path d=\"M%.2f %.2fh7v7h-7z\"", x - 3.5, y - 3.5);
    else if (shape == 2)
        fprintf(out, "<path d=\"M%.2f %.2fl4.5 8h-9z\"", x, y - 5);
    else
        fprintf(out, "<path d=\"M%.2f %.2fl5 5l-5 5l-5 -5z\"", x, y - 5);
    fprintf(out, " fill=\"%s\"", colour);
    if (!tip) {
        fputs("/>\n", out);
        return;
    }
    fputs("><title>", out);
    if (label && *label) {
        xml_text(out, label);
        fputs(", ", out);
    }
    xml_text(out, tip);
    fprintf(out, "</title></%s>\n", elem);
}

static void curves(FILE *out, const Layout *L)
{
    const Order *o = L->o;
    char buf[64];
    text_at(out, ML, L->t1 - 12, NULL, 14, "font-weight=\"bold\"",
            "Predicted time (slowest processor) against processors");
    axes(out, L, L->t1, L->b1, &L->y1, L->x.log ? "processors (logarithmic)" : "processors");
    int every = L->x.ntick > 12 ? 2 : 1;
    for (int k = 0; k < L->x.ntick; k++) {
        double xx = px(L, L->x.tick[k]);
        fprintf(out, "<path d=\"M%.2f %.2fv5\" stroke=\"#333333\" fill=\"none\"/>\n", xx, L->b1);
        if (k % every == 0) {
            snprintf(buf, sizeof buf, "%.0f", L->x.tick[k]);
            text_at(out, xx, L->b1 + 18, "middle", 11, NULL, buf);
        }
    }
    for (int l = 0; l < o->nlab; l++) {
        const char *colour = palette[l % NPAL], *dash = dashes[l / NPAL % NDASH];
        const char *lab = label_of(o->it[o->first[l]].p);
        fprintf(out,
                "<g>\n<polyline class=\"curve\" fill=\"none\" stroke-width=\"2\" "
                "stroke=\"%s\"",
                colour);
        if (dash)
            fprintf(out, " stroke-dasharray=\"%s\"", dash);
        fputs(" points=\"", out);
        for (int i = o->first[l]; i < o->first[l + 1]; i++)
            fprintf(out, "%s%.2f,%.2f", i > o->first[l] ? " " : "", px(L, o->it[i].p->np),
                    py(o->it[i].p->total, L->t1, L->b1, &L->y1));
        fputs("\"/>\n", out);
        for (int i = o->first[l]; i < o->first[l + 1]; i++) {
            const SweepPoint *p = o->it[i].p;
            char t[32], tip[96];
            fmt_time(t, sizeof t, p->total);
            snprintf(tip, sizeof tip, "%d processors: %s", p->np, t);
            marker(out, l / NPAL % 4, px(L, p->np), py(p->total, L->t1, L->b1, &L->y1), colour,
                   lab, tip);
        }
        fputs("</g>\n", out);

        double ly = L->t1 + 10 + l * ROW;
        fprintf(out, "<path d=\"M%.2f %.2fh28\" stroke=\"%s\" stroke-width=\"2\" fill=\"none\"",
                L->legx, ly, colour);
        if (dash)
            fprintf(out, " stroke-dasharray=\"%s\"", dash);
        fputs("/>\n", out);
        marker(out, l / NPAL % 4, L->legx + 14, ly, colour, NULL, NULL);
        text_at(out, L->legx + 36, ly + 4, NULL, 12, "class=\"legend\"", legend_text(lab));
    }
}

static void bars(FILE *out, const Layout *L)
{
    const Order *o = L->o;
    char buf[64];
    text_at(out, ML, L->t2 - 12, NULL, 14, "font-weight=\"bold\"",
            "Time split of the slowest processor");
    axes(out, L, L->t2, L->b2, &L->y2, "processors, by problem point");
    for (int i = 0; i < o->n; i++) {
        const SweepPoint *p = o->it[i].p;
        const char *lab = label_of(p);
        double x0 = L->barx[i] - L->barw / 2, base = 0;
        for (int k = 0; k < SWEEP_NPART; k++) {
            if (!(p->part[k] > 0))
                continue;
            double y0 = py(base, L->t2, L->b2, &L->y2);
            double y1 = py(base + p->part[k], L->t2, L->b2, &L->y2);
            base += p->part[k];
            fprintf(out,
                    "<rect class=\"seg\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.4f\" "
                    "fill=\"%s\"><title>",
                    x0, y1, L->barw, y0 - y1, part_colour[k]);
            if (*lab) {
                xml_text(out, lab);
                fputs(", ", out);
            }
            fmt_time(buf, sizeof buf, p->part[k]);
            fprintf(out, "%d processors: %s ", p->np, sweep_part_name[k]);
            xml_text(out, buf);
            fputs("</title></rect>\n", out);
        }
        if (p->total > 0)
            fprintf(out,
                    "<path class=\"total\" d=\"M%.2f %.2fh%.2f\" stroke=\"#000000\" "
                    "stroke-width=\"2\" fill=\"none\"/>\n",
                    x0 - 3, py(p->total, L->t2, L->b2, &L->y2), L->barw + 6);
        snprintf(buf, sizeof buf, "%d", p->np);
        text_at(out, L->barx[i], L->b2 + 15, "middle", 10, NULL, buf);
    }
    for (int l = 0; l < o->nlab; l++)
        text_at(out, L->groupx[l], L->b2 + 31, "middle", 11, NULL,
                label_of(o->it[o->first[l]].p));

    for (int k = 0; k < SWEEP_NPART; k++) {
        /* the parts from the top down, as they are stacked */
        int part = SWEEP_NPART - 1 - k;
        double ly = L->t2 + 10 + k * ROW;
        fprintf(out, "<path d=\"M%.2f %.2fh12v12h-12z\" fill=\"%s\"/>\n", L->legx + 8, ly - 6,
                part_colour[part]);
        text_at(out, L->legx + 36, ly + 4, NULL, 12, "class=\"legend\"", sweep_part_name[part]);
    }
    double ly = L->t2 + 10 + SWEEP_NPART * ROW;
    fprintf(out,
            "<path d=\"M%.2f %.2fh18\" stroke=\"#000000\" stroke-width=\"2\" "
            "fill=\"none\"/>\n",
            L->legx + 5, ly);
    text_at(out, L->legx + 36, ly + 4, NULL, 12, "class=\"legend\"", "slowest processor (total)");
}

/* The bar segments are the document's only <rect> elements, so that a
 * script (and the unit test) can count them; frames, swatches and marks
 * are paths. */
int sweep_svg(FILE *out, const Sweep *s)
{
    Order o;
    if (sweep_invalid(s) || order_make(&o, s) < 0)
        return -1;
    Layout L = {0};
    if (layout(&L, &o) < 0) {
        free(L.barx);
        free(L.groupx);
        order_free(&o);
        return -1;
    }
    const char *program = s->program ? s->program : "";
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
            L.W, L.H, L.W, L.H);
    fputs("<title>", out);
    if (s->title && *s->title)
        xml_text(out, s->title);
    else {
        fputs("Predicted time of ", out);
        xml_text(out, program);
    }
    fputs("</title>\n", out);
    fprintf(out, "<path d=\"M0 0H%.0fV%.0fH0z\" fill=\"#ffffff\"/>\n", L.W, L.H);

    fputs("<text x=\"24\" y=\"30\" font-size=\"18\" font-weight=\"bold\">", out);
    if (s->title && *s->title)
        xml_text(out, s->title);
    else {
        fputs("Predicted time of ", out);
        xml_text(out, program);
    }
    fputs("</text>\n<text x=\"24\" y=\"52\" font-size=\"13\">program ", out);
    xml_text(out, program);
    fputs(", SAG ", out);
    xml_text(out, s->sag ? s->sag : "");
    fprintf(out, ", %d prediction%s</text>\n", o.n, o.n == 1 ? "" : "s");

    curves(out, &L);
    bars(out, &L);
    fputs("</svg>\n", out);
    free(L.barx);
    free(L.groupx);
    order_free(&o);
    return finish(out);
}
