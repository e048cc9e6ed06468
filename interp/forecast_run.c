/* forecast_run.c - hpfpredict's forecasting modes (doc/forecasting.md):
 * --rue prints a program's resource usage equations, --forecast evaluates
 * them over processor counts and -D values, --sweet-spot gives each
 * phase's best processor count, --rue-check compares them with full
 * interpretations. The equations are derived once, from an interpretation
 * at the program's own sizes (rue_aag.c); a forecast point then costs a
 * compilation (to fold the PARAMETERs the -D values change) and a closed
 * form evaluation per processor count. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "forecast.h"
#include "forecast_run.h"
#include "plot.h"
#include "probe.h"
#include "rue_aag.h"
#include "util.h"

/* The processor count the equations are derived at when --forecast does
 * not say (small enough to interpret quickly, large enough for every
 * message pattern to occur, a 2 x 2 grid in two dimensions). */
enum { DERIVE_NP = 4 };

/* ---- printing ---------------------------------------------------------------- */

/* seconds with a unit: 9.55 ns, 75 us, 1.2 ms, 3.4 s */
static void put_time(FILE *out, double s)
{
    double a = fabs(s);
    if (a == 0)
        fputs("0 s", out);
    else if (a < 1e-6)
        fprintf(out, "%.4g ns", s * 1e9);
    else if (a < 1e-3)
        fprintf(out, "%.4g us", s * 1e6);
    else if (a < 1)
        fprintf(out, "%.4g ms", s * 1e3);
    else
        fprintf(out, "%.6g s", s);
}

static int trivial(const Rx *e, double v)
{
    return !e || (e->k == RX_NUM && e->v == v);
}

static void put_rx(FILE *out, const Rx *e, const RxVars *v, int paren)
{
    int p = paren && (e->k == RX_ADD || e->k == RX_SUB);
    if (p)
        fputc('(', out);
    rx_print(out, e, v);
    if (p)
        fputc(')', out);
}

/* One term as its formula: calls x count x (base x grow + bytes x per-byte). */
static void put_term(FILE *out, const Rue *r, const RueTerm *t)
{
    int first = 1;
    if (!trivial(t->calls, 1)) {
        put_rx(out, t->calls, &r->vars, 1);
        first = 0;
    }
    if (!trivial(t->count, 1) || first) {
        if (!first)
            fputs(" x ", out);
        put_rx(out, t->count, &r->vars, 1);
    }
    fputs(" x ", out);
    int has_bytes = t->bytes && !trivial(t->bytes, 0) && t->perbyte > 0;
    if (has_bytes || !trivial(t->grow, 1))
        fputc('(', out);
    put_time(out, t->base);
    if (!trivial(t->grow, 1)) {
        fputs(" x ", out);
        put_rx(out, t->grow, &r->vars, 1);
    }
    if (has_bytes) {
        fputs(" + ", out);
        put_rx(out, t->bytes, &r->vars, 1);
        fputs(" B x ", out);
        put_time(out, t->perbyte);
        fputs("/B", out);
    }
    if (has_bytes || !trivial(t->grow, 1))
        fputc(')', out);
}

static void put_binding(FILE *out, const Rue *r, const double *val)
{
    for (int i = 0; i < r->vars.n; i++)
        fprintf(out, "%s%s = %.15g", i ? ", " : "", r->vars.name[i], val[i]);
}

static void json_rx(FILE *out, const Rx *e, const RxVars *v)
{
    if (!e) {
        fputs("null", out);
        return;
    }
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    if (!m) {
        fputs("null", out);
        return;
    }
    rx_print(m, e, v);
    fclose(m);
    json_string(out, s);
    free(s);
}


static void json_parts(FILE *out, const double *part, double total)
{
    fprintf(out, "\"total\": %.17g, \"computation\": %.17g, \"communication\": %.17g, "
            "\"io\": %.17g, \"read\": %.17g, \"write\": %.17g", total, part[RUE_COMP],
            part[RUE_COMM], part[RUE_READ] + part[RUE_WRITE], part[RUE_READ], part[RUE_WRITE]);
}

/* {"program": ..., "sag": ..., "derived_at": {...}: the head of the JSON
 * outputs (the object left open). */
static void json_head(FILE *out, const Rue *r, const char *program, const char *sag)
{
    fputs("{\"program\": ", out);
    json_string(out, program);
    fputs(", \"sag\": ", out);
    json_string(out, sag);
    fputs(", \"derived_at\": {", out);
    for (int i = 0; i < r->vars.n; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, r->vars.name[i]);
        fprintf(out, ": %.15g", r->value[i]);
    }
    fputc('}', out);
}

void rue_write_text(FILE *out, const Rue *r, const char *program, const char *sag)
{
    double part[RUE_MAX_PHASES][RUE_NKIND], ptotal[RUE_MAX_PHASES];
    double total = rue_eval(r, r->value, part, ptotal);
    fprintf(out, "resource usage equations of %s on %s, derived at ", program, sag);
    put_binding(out, r, r->value);
    fputs("\n(a term: calls x count x (base x growth + bytes x per-byte); the counts are the "
          "busiest\nprocessor's; * fitted: the derived count times the ratio the "
          "interpretation measured)\n", out);
    for (int ph = 0; ph < r->nphase; ph++) {
        fprintf(out, "\nphase %d  %s: ", ph + 1, r->phase[ph]);
        put_time(out, ptotal[ph]);
        for (int k = 0; k < RUE_NKIND; k++)
            if (part[ph][k] != 0) {
                fprintf(out, "  %s ", rue_kind_name[k]);
                put_time(out, part[ph][k]);
            }
        fputc('\n', out);
        for (int i = 0; i < r->nterm; i++) {
            const RueTerm *t = &r->term[i];
            double s = rue_term_time(t, r->value);
            if (t->phase != ph || trivial(t->count, 0) || s == 0)
                continue;
            fprintf(out, "  %c line %-5d %-13s %s\n      = ", t->fitted ? '*' : ' ', t->line,
                    rue_kind_name[t->kind], t->label);
            put_term(out, r, t);
            fputs(" = ", out);
            put_time(out, s);
            fputc('\n', out);
        }
    }
    fputs("\ntotal ", out);
    put_time(out, total);
    fputc('\n', out);
}

void rue_write_json(FILE *out, const Rue *r, const char *program, const char *sag)
{
    double part[RUE_MAX_PHASES][RUE_NKIND], ptotal[RUE_MAX_PHASES];
    double total = rue_eval(r, r->value, part, ptotal), sum[RUE_NKIND] = {0};
    json_head(out, r, program, sag);
    fputs(",\n \"phases\": [", out);
    for (int ph = 0; ph < r->nphase; ph++) {
        fprintf(out, "%s\n  {\"name\": ", ph ? "," : "");
        json_string(out, r->phase[ph]);
        fprintf(out, ", \"line\": %d, ", r->phase_line[ph]);
        json_parts(out, part[ph], ptotal[ph]);
        fputc('}', out);
        for (int k = 0; k < RUE_NKIND; k++)
            sum[k] += part[ph][k];
    }
    fputs("],\n \"terms\": [", out);
    for (int i = 0; i < r->nterm; i++) {
        const RueTerm *t = &r->term[i];
        fprintf(out, "%s\n  {\"phase\": %d, \"kind\": \"%s\", \"line\": %d, \"aau\": %d, \"label\": ",
                i ? "," : "", t->phase + 1, rue_kind_name[t->kind], t->line, t->aau);
        json_string(out, t->label);
        fputs(", \"calls\": ", out);
        json_rx(out, t->calls, &r->vars);
        fputs(", \"count\": ", out);
        json_rx(out, t->count, &r->vars);
        fputs(", \"growth\": ", out);
        json_rx(out, t->grow, &r->vars);
        fputs(", \"bytes\": ", out);
        json_rx(out, t->bytes, &r->vars);
        fprintf(out, ", \"base\": %.17g, \"per_byte\": %.17g, \"fitted\": %s, \"seconds\": %.17g}",
                t->base, t->perbyte, t->fitted ? "true" : "false", rue_term_time(t, r->value));
    }
    fputs("],\n ", out);
    json_parts(out, sum, total);
    fputs("}\n", out);
}

/* ---- the derivation ---------------------------------------------------------- */

/* The values of the equations' variables for the program compiled as sp:
 * each PARAMETER found by its name and module in a unit's scope (the first
 * unit that has it); those not found keep r's. */
static void bind_params(const Rue *r, const SpProgram *sp, double *val)
{
    for (int i = 1; i < r->vars.n; i++) {
        val[i] = r->value[i];
        for (int u = 0; u < sp->units.n; u++) {
            const SpUnit *un = sp->units.v[u];
            const Symbol *y = un->scope ? scope_lookup(un->scope, r->pname[i]) : NULL;
            if (y && y->alias)
                y = y->alias;
            if (y && y->kind == SYM_PARAMETER && y->value.known
                && !strcmp(rue_param_scope(sp, y), r->pmodule[i])) {
                val[i] = y->value.type.base == TY_INTEGER ? (double)y->value.i : y->value.r;
                break;
            }
        }
    }
}

/* The derived counts checked at a second size: every integer PARAMETER
 * of the equations of 2 or more a quarter larger, the program interpreted
 * again on one processor and on np, and the terms of the AAUs whose executions the equations do not
 * count there marked fitted (a bound the lowering folded into a number,
 * say). Nothing is said when the program cannot be interpreted there: the
 * equations stand as derived. */
static void second_look(const Options *o, const SrcFile *f, const SagGraph *sag,
                        const Define *defs, int ndefs, int np, Rue *r)
{
    Define *dd = xcalloc((size_t)(ndefs + r->vars.n), sizeof *dd);
    char (*text)[32] = xcalloc((size_t)r->vars.n, sizeof *text);
    int nd = 0, changed = 0;
    for (int i = 1; i < r->vars.n; i++) {
        double v = r->value[i];
        if (v != floor(v) || v < 2 || v > 1e9 || strcmp(r->vars.name[i], r->pname[i]))
            continue;
        snprintf(text[i], sizeof text[i], "%.0f", v + floor(fmax(1, v / 4)));
        dd[nd++] = (Define){r->pname[i], text[i], 0};
        changed = 1;
    }
    for (int i = 0; i < ndefs; i++) {
        int again = 0;
        for (int j = 0; j < nd; j++)
            again |= !strcmp(dd[j].name, defs[i].name);
        if (!again)
            dd[nd++] = defs[i];
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *quiet = changed ? open_memstream(&buf, &len) : NULL;
    if (quiet) {
        Diag d2;
        diag_init(&d2, quiet);
        Program p;
        if (program_compile(o, f, dd, nd, &p, &d2) == 0) {
            p.g = program_abstract(o, &p, dd, nd);
            EngineResult res;
            double val[RX_MAX_VARS];
            memcpy(val, r->value, sizeof val);
            bind_params(r, p.sp, val);
            /* on one processor (every range whole) and on np */
            for (int k = 0; k < 2; k++) {
                if (k) {
                    aag_free(p.g);
                    p.g = program_abstract(o, &p, dd, nd);
                }
                val[0] = k ? np : 1;
                if (program_interpret(o, f, sag, p.sp, p.g, dd, nd, (int)val[0], 0, NULL, &res,
                                      &d2))
                    break;
                for (int t = 0; t < r->nterm; t++) {
                    RueTerm *x = &r->term[t];
                    if (x->fitted || x->aau > p.g->naau || p.g->aau[x->aau - 1]->line != x->line)
                        continue;
                    int fitted;
                    double e = rue_aau_execs(r, x->aau, val, &fitted);
                    double in = p.g->aau[x->aau - 1]->xmost;
                    if (fabs(e - in) > 1e-6 * fmax(1, fabs(in)))
                        for (int u = 0; u < r->nterm; u++)
                            if (r->term[u].aau == x->aau)
                                r->term[u].fitted = 1;
                }
            }
            program_free(&p);
        }
        fclose(quiet);
        free(buf);
    }
    free(text);
    free(dd);
}

/* Interprets the program at np with the definitions defs and derives its
 * equations into r: 0, or 1 after errors on diag. */
static int derive(const Options *o, const SrcFile *f, const SagGraph *sag, Define *defs,
                  int ndefs, int np, Rue *r, Diag *diag)
{
    Program p;
    if (program_compile(o, f, defs, ndefs, &p, diag))
        return 1;
    p.g = program_abstract(o, &p, defs, ndefs);
    EngineResult res;
    int status = 1;
    if (program_interpret(o, f, sag, p.sp, p.g, defs, ndefs, np, 0, NULL, &res, diag) == 0) {
        SrcPhaseMark *marks;
        int nmarks = src_phase_marks(f, &marks);
        if (rue_derive(r, p.g, sag, np, marks, nmarks) == 0)
            status = 0;
        else
            fputs("hpfpredict: error: out of memory deriving the equations\n", stderr);
        free(marks);
    }
    program_free(&p);
    if (status == 0)
        second_look(o, f, sag, defs, ndefs, np, r);
    return status;
}

/* The -D definitions that name PARAMETERs (their `used` after a
 * compilation): flags in is_param[0..ndefs-1]. */
static int which_params(const Options *o, const SrcFile *f, Define *defs, int ndefs,
                        int *is_param, Diag *diag)
{
    Program p;
    if (program_compile(o, f, defs, ndefs, &p, diag))
        return 1;
    for (int i = 0; i < ndefs; i++)
        is_param[i] = defs[i].used;
    program_free(&p);
    return 0;
}

/* ---- the forecast's experiments ------------------------------------------- */

/* --set cpu.speed=K and net.bandwidth=K act on the equations: BASE of the
 * computation divided by K, the per-byte costs by K (the papers' "a CPU
 * 100 times faster"); returns 1 when every --set is one of those (else
 * they all act through the SAG, on the interpretation). */
int forecast_sets_on_equations(const Options *o)
{
    if (!(o->forecast || o->sweet_spot) || !o->nsets)
        return 0;
    for (int i = 0; i < o->nsets; i++) {
        const char *s = o->sets[i];
        if (strncmp(s, "cpu.speed=", 10) && strncmp(s, "net.bandwidth=", 14))
            return 0;
    }
    return 1;
}

static int apply_sets_to(const Options *o, Rue *r)
{
    for (int i = 0; i < o->nsets; i++) {
        const char *s = o->sets[i];
        int cpu = !strncmp(s, "cpu.speed=", 10);
        const char *v = strchr(s, '=') + 1;
        char *end;
        double k = strtod(v, &end);
        if (end == v || *end || !(k > 0) || !isfinite(k)) {
            fprintf(stderr, "hpfpredict: error: --set %s: a positive factor expected\n", s);
            return 1;
        }
        for (int t = 0; t < r->nterm; t++) {
            if (cpu && r->term[t].kind == RUE_COMP)
                r->term[t].base /= k;
            if (!cpu && r->term[t].kind == RUE_COMM)
                r->term[t].perbyte /= k;
        }
    }
    return 0;
}

/* ---- forecasts ---------------------------------------------------------------- */

/* The label of -D combination c (xmalloc'd), the definitions set to it. */
static char *combination(Options *o, long c)
{
    char buf[512];
    return xstrdup(sweep_values(o, c, buf, sizeof buf));
}

static void forecast_text(FILE *out, const Rue *r, const FPoint *pt, int n, const char *program,
                          const char *sag)
{
    fprintf(out, "forecast of %s on %s from its resource usage equations (derived at ",
            program, sag);
    put_binding(out, r, r->value);
    fputs("; seconds)\n", out);
    int w = 6;
    for (int i = 0; i < n; i++)
        if ((int)strlen(pt[i].label) > w)
            w = (int)strlen(pt[i].label);
    fprintf(out, "%9s  %-*s %13s %13s %13s %13s\n", "np", w, "values", "total", "computation",
            "communication", "io");
    for (int i = 0; i < n; i++)
        fprintf(out, "%9d  %-*s %13.6g %13.6g %13.6g %13.6g\n", pt[i].np, w,
                *pt[i].label ? pt[i].label : "-", pt[i].total, pt[i].part[RUE_COMP],
                pt[i].part[RUE_COMM], pt[i].part[RUE_READ] + pt[i].part[RUE_WRITE]);
}

static void forecast_json(FILE *out, const Rue *r, const FPoint *pt, int n, const char *program,
                          const char *sag)
{
    json_head(out, r, program, sag);
    fputs(",\n \"points\": [", out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s\n  {\"np\": %d, \"values\": ", i ? "," : "", pt[i].np);
        json_string(out, pt[i].label);
        fputs(", ", out);
        json_parts(out, pt[i].part, pt[i].total);
        fputs(", \"phases\": [", out);
        for (int ph = 0; ph < r->nphase; ph++) {
            fprintf(out, "%s{\"name\": ", ph ? ", " : "");
            json_string(out, r->phase[ph]);
            fputs(", ", out);
            json_parts(out, pt[i].ppart[ph], pt[i].ptotal[ph]);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

/* The sweet spots of every phase and of the program over the -np list, at
 * each -D combination. */
static void sweet_spots(FILE *out, int json, const Rue *r, const Options *o, double *val,
                        const char *label, int first)
{
    double np[MAX_POINTS];
    for (int i = 0; i < o->nnp; i++)
        np[i] = o->np[i];
    if (json)
        fprintf(out, "%s\n  {\"values\": ", first ? "" : ",");
    else
        fprintf(out, "%ssweet spots%s%s (processor counts of least time; where communication "
                "first exceeds computation)\n", first ? "" : "\n", *label ? " at " : "", label);
    if (json)
        json_string(out, label);
    if (json)
        fputs(", \"phases\": [", out);
    for (int ph = -1; ph < r->nphase; ph++) {
        double best, t, cross;
        rue_sweet_spot(r, ph, val, np, o->nnp, &best, &t, &cross);
        const char *name = ph < 0 ? "program" : r->phase[ph];
        if (json) {
            fprintf(out, "%s{\"name\": ", ph > -1 ? ", " : "");
            json_string(out, name);
            fprintf(out, ", \"best_np\": %.0f, \"best_time\": %.17g, \"comm_exceeds_np\": ", best, t);
            if (cross > 0)
                fprintf(out, "%.0f}", cross);
            else
                fputs("null}", out);
        } else {
            fprintf(out, "  %-40s best at %8.0f processors: ", name, best);
            put_time(out, t);
            if (cross > 0)
                fprintf(out, "; communication exceeds computation from %.0f\n", cross);
            else
                fputs("; communication never exceeds computation\n", out);
        }
    }
    if (json)
        fputs("]}", out);
}

/* ---- --fit, --save-fit ----------------------------------------------------------- */

/* An error in a file read by --fit, as file:line: error: (exit 1). */
static int fit_error(const char *path, int line, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s:%d: error: ", path, line);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 1;
}

/* The part a term is of its AAU's terms of its kind (0, 1, ...): with the
 * AAU, what names it in a saved fit. */
static int term_part(const Rue *r, int t)
{
    int k = 0;
    for (int i = 0; i < t; i++)
        k += r->term[i].aau == r->term[t].aau && r->term[i].kind == r->term[t].kind;
    return k;
}

/* A saved fit (--save-fit): each term's constants, named by its AAU, its
 * part and kind, and checked by its line (a fit of another version of the
 * program is refused). */
static int load_fit(FILE *in, const char *path, Rue *r)
{
    char buf[512];
    int ln = 0, header = 0;
    while (fgets(buf, sizeof buf, in)) {
        ln++;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        if (!header) {
            if (strncmp(buf, "aau,part,line,kind,base,per_byte", 32))
                return fit_error(path, ln, "expected the header aau,part,line,kind,base,"
                                 "per_byte, not '%.40s'", buf);
            header = 1;
            continue;
        }
        int aau, part, line, nc = 0;
        char kind[32];
        double base, per;
        if (sscanf(buf, "%d,%d,%d,%31[a-z],%lf,%lf%n", &aau, &part, &line, kind, &base, &per,
                   &nc) != 6 || (buf[nc] && buf[nc] != '\n') || !isfinite(base) ||
            !isfinite(per) || base < 0 || per < 0)
            return fit_error(path, ln, "a row is aau,part,line,kind,base,per_byte with "
                             "constants of 0 or more, not '%.40s'", buf);
        int k = -1, found = 0;
        for (int j = 0; j < RUE_NKIND; j++)
            if (!strcmp(kind, rue_kind_name[j]))
                k = j;
        if (k < 0)
            return fit_error(path, ln, "unknown kind '%s' (computation, communication, read, "
                             "write)", kind);
        for (int t = 0; t < r->nterm; t++) {
            RueTerm *x = &r->term[t];
            if (x->aau != aau || (int)x->kind != k || term_part(r, t) != part)
                continue;
            if (x->line != line)
                return fit_error(path, ln, "%s", "the fit is of another version of the program "
                                 "(its AAU is on another line): fit again");
            x->base = base;
            x->perbyte = per;
            found = 1;
        }
        if (!found)
            return fit_error(path, ln, "%s", "the fit is of another version of the program "
                             "(no such term): fit again");
    }
    if (!header)
        return fit_error(path, ln, "%s", "an empty fit: no header line");
    return 0;
}

/* The samples of a run's profile (HPFRT_PROFILE; doc/runtime.md): its
 * binding from the comments (# np=4, # n=256: the values hpfc -D gave),
 * the rest r's; per line its computation (comp_max, the slowest process's
 * region time less its communication, less the cost of the region's
 * timers, # region_timers=, at each call) and communication (comm_max). */
static int read_profile(FILE *in, const char *path, const Rue *r, RueSample **s, int *ns,
                        int *cap)
{
    double val[RX_MAX_VARS];
    memcpy(val, r->value, sizeof val);
    char buf[512];
    int ln = 0, header = 0, have_np = 0;
    int comp_col = 0;       /* 1: the computation's columns; 2: the iterations' too */
    double timers = 0;      /* a region's timers' cost, taken off its computation */
    while (fgets(buf, sizeof buf, in)) {
        ln++;
        buf[strcspn(buf, "\r\n")] = 0;
        if (buf[0] == '#') {
            char name[64];
            double v;
            int nc = 0;
            /* (a value the equations do not name changes nothing) */
            if (sscanf(buf, "# %63[A-Za-z0-9_]=%lf%n", name, &v, &nc) == 2 && !buf[nc]) {
                if (!strcmp(name, "region_timers")) {
                    timers = v >= 0 && v < 1 ? v : 0;
                    continue;
                }
                if (!strcmp(name, "np")) {
                    if (!(v >= 1 && v == floor(v)))
                        return fit_error(path, ln, "np=%s is not a processor count", buf + 5);
                    val[0] = v;
                    have_np = 1;
                }
                for (int i = 1; i < r->vars.n; i++)
                    if (!strcasecmp(r->pname[i], name))
                        val[i] = v;
            }
            continue;
        }
        if (!header) {
            /* (the iterations' columns, when there, are not needed: the
               equations count the iterations) */
            if (!strcmp(buf, "line,calls,time_max,time_mean,comm_max,comm_mean,comp_max,"
                             "comp_mean,iters_max,iters_mean"))
                comp_col = 2;
            else if (!strcmp(buf, "line,calls,time_max,time_mean,comm_max,comm_mean,comp_max,"
                                  "comp_mean"))
                comp_col = 1;
            else if (strcmp(buf, "line,calls,time_max,time_mean,comm_max,comm_mean"))
                return fit_error(path, ln, "not a profile of libhpfrt (HPFRT_PROFILE): the "
                                 "header is '%.60s'", buf);
            header = 1;
            continue;
        }
        double f[10];
        int nc = 0, line, want = comp_col == 2 ? 10 : comp_col ? 8 : 6;
        int got = comp_col == 2
                  ? sscanf(buf, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf%n", &line, &f[1], &f[2],
                           &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &nc)
                  : comp_col ? sscanf(buf, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf%n", &line, &f[1],
                                      &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &nc)
                  : sscanf(buf, "%d,%lf,%lf,%lf,%lf,%lf%n", &line, &f[1], &f[2], &f[3], &f[4],
                           &f[5], &nc);
        if (got != want || line < 0 || buf[nc])
            return fit_error(path, ln, "a row of the profile is malformed: '%.60s'", buf);
        for (int k = 1; k < want; k++)
            if (!(f[k] >= 0) || !isfinite(f[k]))
                return fit_error(path, ln, "a time of the profile is negative or not a "
                                 "number: '%.60s'", buf);
        double comp = comp_col ? f[6] : (f[2] > f[4] ? f[2] - f[4] : 0), comm = f[4];
        comp = comp > f[1] * timers ? comp - f[1] * timers : 0;
        for (int k = 0; k < 2; k++) {
            if (*ns + 1 > *cap) {
                *cap = *cap ? 2 * *cap : 64;
                *s = xrealloc(*s, (size_t)*cap * sizeof **s);
            }
            RueSample *x = &(*s)[(*ns)++];
            memcpy(x->val, val, sizeof val);
            x->line = line;
            x->kind = k ? RUE_COMM : RUE_COMP;
            x->seconds = k ? comm : comp;
        }
    }
    if (!header)
        return fit_error(path, ln, "%s", "an empty profile: no header line");
    if (!have_np)
        return fit_error(path, ln, "%s", "the profile does not say its processor count "
                         "(# np=N): libhpfrt writes it");
    return 0;
}

/* --fit FILE...: r's constants from measured runs (profiles, fitted by
 * least squares: rue_fit) or from a saved fit; the groups fitted are
 * reported on standard error, and saved with --save-fit. */
static int apply_fits(const Options *o, Rue *r, const char *sag_name)
{
    RueSample *s = NULL;
    int ns = 0, cap = 0, bad = 0, profiles = 0;
    char *touched = xcalloc((size_t)r->nterm + 1, 1);   /* scaled by a probe's times */
    for (int i = 0; i < o->nfits && !bad; i++) {
        FILE *in = fopen(o->fits[i], "r");
        if (!in) {
            fprintf(stderr, "hpfpredict: error: --fit %s: %s\n", o->fits[i], strerror(errno));
            bad = 1;
            break;
        }
        char first[64] = "";
        if (!fgets(first, sizeof first, in))
            first[0] = 0;
        rewind(in);
        if (!strncmp(first, "# hpfpredict fit", 16))
            bad = load_fit(in, o->fits[i], r);
        else if (!strncmp(first, "# hpfrt probe times", 19)) {
            bad = probe_fit_equations(r, o->fits[i], touched);
            profiles++;
        } else {
            bad = read_profile(in, o->fits[i], r, &s, &ns, &cap);
            profiles++;
        }
        fclose(in);
    }
    RueFitGroup *g = NULL;
    int ng = 0;
    if (!bad && ns) {
        g = xcalloc((size_t)ns, sizeof *g);
        ng = rue_fit(r, s, ns, g, ns);
        if (!ng) {
            fprintf(stderr, "hpfpredict: error: --fit: no line of the profiles has a term of "
                    "%s's equations (profiles of another program?)\n", o->path);
            bad = 1;
        } else
            fprintf(stderr, "hpfpredict: the constants of %d line%s fitted to %d run%s\n", ng,
                    ng == 1 ? "" : "s", profiles, profiles == 1 ? "" : "s");
    }
    if (!bad && o->save_fit) {
        FILE *out = fopen(o->save_fit, "w");
        if (!out) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", o->save_fit,
                    strerror(errno));
            bad = 1;
        } else {
            fprintf(out, "# hpfpredict fit of %s on %s, from %d run%s\n", o->path, sag_name,
                    profiles, profiles == 1 ? "" : "s");
            fprintf(out, "# the lines fitted: line,kind,base,per_byte,samples,both,rms\n");
            for (int i = 0; i < ng; i++)
                fprintf(out, "#   %d,%s,%.6g,%.6g,%d,%d,%.4g\n", g[i].line,
                        rue_kind_name[g[i].kind], g[i].base, g[i].perbyte, g[i].nsample,
                        g[i].both, g[i].rms);
            fprintf(out, "aau,part,line,kind,base,per_byte\n");
            for (int t = 0; t < r->nterm; t++) {
                const RueTerm *x = &r->term[t];
                int fitted = touched[t];
                for (int i = 0; i < ng; i++)
                    fitted |= g[i].line == x->line && g[i].kind == x->kind;
                if (fitted)
                    fprintf(out, "%d,%d,%d,%s,%.17g,%.17g\n", x->aau, term_part(r, t), x->line,
                            rue_kind_name[x->kind], x->base, x->perbyte);
            }
            if ((ferror(out) | fclose(out)) != 0) {
                fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->save_fit);
                remove(o->save_fit);
                bad = 1;
            }
        }
    }
    free(g);
    free(s);
    free(touched);
    return bad;
}

/* ---- --rue-check ------------------------------------------------------------- */

/* One AAU whose executions the equations count otherwise than the
 * interpretation at a point. */
typedef struct {
    int aau, line, fitted;
    const char *label;
    double eq, in;
} Differ;

/* The equations against the interpretation at one point (the program
 * compiled as p, interpreted for np): totals, waiting, and the AAUs whose
 * counts differ, written as text or JSON. Returns the number of derived
 * (not fitted) counts that differ, or -1 when the interpretation failed. */
static int check_point(FILE *out, int json, const Options *o, const SrcFile *f,
                       const SagGraph *sag, Program *p, const Rue *r, const double *val, int np,
                       const char *label, int first, Diag *diag)
{
    EngineResult res;
    if (program_interpret(o, f, sag, p->sp, p->g, o->defs, o->ndefs, np, 0, NULL, &res, diag))
        return -1;
    double part[RUE_MAX_PHASES][RUE_NKIND];
    double eq = rue_eval(r, val, part, NULL);
    const Aag *g = p->g;
    int nd = 0, agree = 0, checked = 0, derived_differ = 0, cap = 16;
    Differ *dv = xcalloc((size_t)cap, sizeof *dv);
    for (int id = 1; id <= g->naau; id++) {
        int fitted;
        int has = 0;
        for (int i = 0; i < r->nterm && !has; i++)
            has = r->term[i].aau == id;
        if (!has)
            continue;
        const Aau *a = g->aau[id - 1];
        double e = rue_aau_execs(r, id, val, &fitted), in = a->xmost;
        checked++;
        if (fabs(e - in) <= 1e-6 * fmax(1, fabs(in))) {
            agree++;
            continue;
        }
        derived_differ += !fitted;
        if (nd == cap) {
            cap *= 2;
            dv = xrealloc(dv, (size_t)cap * sizeof *dv);
        }
        dv[nd++] = (Differ){id, a->line, fitted, a->label ? a->label : aau_class_name[a->cls], e, in};
    }
    double wait = res.part[M_WAIT];
    double err = res.total > 0 ? (eq - res.total) / res.total * 100 : 0;
    if (json) {
        fprintf(out, "%s\n  {\"np\": %d, \"values\": ", first ? "" : ",", np);
        json_string(out, label);
        fprintf(out, ", \"interpreted\": %.17g, \"equations\": %.17g, \"error_percent\": %.4g, "
                "\"waiting\": %.17g, \"imbalance\": %.17g, \"aaus\": %d, \"agree\": %d, \"derived_differ\": %d, "
                "\"differ\": [", res.total, eq, err, wait, res.total - wait - eq, checked, agree,
                derived_differ);
        for (int i = 0; i < nd; i++) {
            fprintf(out, "%s{\"aau\": %d, \"line\": %d, \"fitted\": %s, \"label\": ",
                    i ? ", " : "", dv[i].aau, dv[i].line, dv[i].fitted ? "true" : "false");
            json_string(out, dv[i].label);
            fprintf(out, ", \"equations\": %.17g, \"interpreted\": %.17g}", dv[i].eq, dv[i].in);
        }
        fputs("]}", out);
    } else {
        double pc = res.total > 0 ? 100 / res.total : 0;
        fprintf(out, "%9d  %-14s %12.6g %12.6g %+8.2f%% %8.2f%% %9.2f%%   %d of %d agree", np,
                *label ? label : "-", res.total, eq, err, wait * pc,
                (res.total - wait - eq) * pc, agree, checked);
        if (nd)
            fprintf(out, " (%d derived, %d fitted differ)", derived_differ, nd - derived_differ);
        fputc('\n', out);
        for (int i = 0; i < nd; i++)
            fprintf(out, "             %s AAU %d, line %d, %s: %.10g by the equations, %.10g "
                    "interpreted\n", dv[i].fitted ? "fitted " : "derived", dv[i].aau,
                    dv[i].line, dv[i].label, dv[i].eq, dv[i].in);
    }
    free(dv);
    return derived_differ;
}

static int rue_check(Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
                     const Rue *r, Diag *diag)
{
    int json = o->format == FMT_JSON;
    long ncomb = o->npoints / o->nnp;
    if (json) {
        json_head(stdout, r, o->path, sag_name);
        fputs(", \"points\": [", stdout);
    } else {
        printf("the equations of %s on %s (derived at ", o->path, sag_name);
        put_binding(stdout, r, r->value);
        printf(") against interpretations\n(waiting: the slowest processor's, which the "
               "equations leave out; imbalance: the rest of the\ndifference, work and messages "
               "not even over the processors, and what the equations\ndo not scale as the "
               "interpretation does)\n%9s  %-14s %12s %12s %9s %9s %10s   %s\n", "np", "values",
               "interpreted", "equations", "error", "waiting", "imbalance",
               "executions of the AAUs");
    }
    int bad = 0, first = 1;
    for (long c = 0; c < ncomb; c++) {
        char *label = combination(o, c);
        double val[RX_MAX_VARS];
        memcpy(val, r->value, sizeof val);
        Program p;
        if (program_compile(o, f, o->defs, o->ndefs, &p, diag)) {
            free(label);
            return 1;
        }
        bind_params(r, p.sp, val);
        for (int i = 0; i < o->nnp; i++) {
            /* a fresh AAG each time: the engine's metrics are summed into it */
            p.g = program_abstract(o, &p, o->defs, o->ndefs);
            val[0] = o->np[i];
            int n = check_point(stdout, json, o, f, sag, &p, r, val, o->np[i], label, first, diag);
            aag_free(p.g);
            p.g = NULL;
            first = 0;
            if (n < 0) {
                program_free(&p);
                free(label);
                return 1;
            }
            bad += n;
        }
        program_free(&p);
        free(label);
    }
    if (json)
        printf("], \"derived_differ\": %d}\n", bad);
    else
        printf("%d derived count%s differ%s\n", bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "");
    return 0;
}

int forecast_main(Options *o, const SrcFile *f, SagGraph *sag, const char *sag_name, Diag *diag)
{
    int *is_param = xcalloc((size_t)o->ndefs + 1, sizeof *is_param);
    int status = 1;
    Rue r;
    rue_init(&r);
    FPoint *pt = NULL;
    int npt = 0;
    if (which_params(o, f, o->defs, o->ndefs, is_param, diag))
        goto done;
    /* the derivation: --rue at the point given; a forecast at the
       program's own PARAMETER values (the -D values of other variables
       kept: they are held variables the interpretation needs) */
    Define *dd = xcalloc((size_t)o->ndefs + 1, sizeof *dd);
    int nd = 0;
    for (int i = 0; i < o->ndefs; i++)
        if (o->rue || !is_param[i])
            dd[nd++] = o->defs[i];
    int np0 = o->rue ? o->np[0] : DERIVE_NP;
    int st = derive(o, f, sag, dd, nd, np0, &r, diag);
    free(dd);
    if (st)
        goto done;
    if (o->nfits && apply_fits(o, &r, sag_name))
        goto done;
    if (o->rue) {
        if (o->format == FMT_JSON)
            rue_write_json(stdout, &r, o->path, sag_name);
        else
            rue_write_text(stdout, &r, o->path, sag_name);
        status = 0;
        goto done;
    }
    if (o->rue_check) {
        status = rue_check(o, f, sag, sag_name, &r, diag);
        goto done;
    }
    if (forecast_sets_on_equations(o) && apply_sets_to(o, &r))
        goto done;
    long ncomb = o->npoints / o->nnp;
    pt = xcalloc((size_t)o->npoints, sizeof *pt);
    int json = o->format == FMT_JSON;
    if (o->sweet_spot && json)
        fputs("{\"sweet_spots\": [", stdout);
    for (long c = 0; c < ncomb; c++) {
        char *label = combination(o, c);
        double val[RX_MAX_VARS];
        memcpy(val, r.value, sizeof val);
        Program p;
        if (program_compile(o, f, o->defs, o->ndefs, &p, diag)) {
            free(label);
            goto done;
        }
        bind_params(&r, p.sp, val);
        program_free(&p);
        for (int i = 0; i < o->nnp; i++) {
            FPoint *q = &pt[npt++];
            q->np = o->np[i];
            q->label = i ? xstrdup(label) : label;
            val[0] = o->np[i];
            q->total = rue_eval(&r, val, q->ppart, q->ptotal);
            for (int k = 0; k < RUE_NKIND; k++)
                for (int ph = 0; ph < r.nphase; ph++)
                    q->part[k] += q->ppart[ph][k];
            if (!isfinite(q->total)) {
                fprintf(stderr, "hpfpredict: error: the forecast at %s%s-np %d is not a "
                        "number (an equation divides by zero or takes the logarithm of "
                        "0 there)\n", label, *label ? " " : "", o->np[i]);
                goto done;
            }
        }
        if (o->sweet_spot)
            sweet_spots(stdout, json, &r, o, val, label, c == 0);
    }
    if (o->sweet_spot) {
        if (json)
            fputs("]}\n", stdout);
    } else if (json)
        forecast_json(stdout, &r, pt, npt, o->path, sag_name);
    else
        forecast_text(stdout, &r, pt, npt, o->path, sag_name);
    status = 0;
    if (o->plot_out) {
        ForecastPlot fp = {o->path, sag_name, &r, pt, npt};
        int bad = forecast_svg(o->plot_out, &fp) != 0;
        if ((ferror(o->plot_out) | fclose(o->plot_out)) != 0 || bad) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->plot);
            remove(o->plot);
            status = 1;
        }
        o->plot_out = NULL;
    }
done:
    for (int i = 0; i < npt; i++)
        free(pt[i].label);
    free(pt);
    rue_free(&r);
    free(is_param);
    return status;
}
