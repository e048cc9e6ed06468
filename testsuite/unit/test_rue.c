/* test_rue.c - resource usage equations (analysis/rue.c) and their
 * evaluation (interp/forecast.c): expressions parsed, printed back and
 * evaluated by hand; the papers' worked example (loop 273 of Seismic,
 * Armstrong & Eigenmann [A] section 3.1); the terms' formulas by hand;
 * the sweet spot of T = a n^2 / P + b log2 P, which calculus puts at
 * P* = a n^2 ln 2 / b. Prints TAP. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "forecast.h"
#include "rue.h"
#include "tap.h"

static int near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want) + 1e-300;
}

/* text evaluated with P = 4, n = 10, m = 3 */
static double ev(const char *text)
{
    RxVars v;
    rx_vars_init(&v);
    char err[128];
    Rx *e = rx_parse(text, &v, err, sizeof err);
    if (!e)
        return NAN;
    double val[RX_MAX_VARS] = {0};
    for (int i = 0; i < v.n; i++)
        val[i] = !strcmp(v.name[i], "P") ? 4 : !strcmp(v.name[i], "n") ? 10
               : !strcmp(v.name[i], "m") ? 3 : NAN;
    double r = rx_eval(e, val);
    rx_free(e);
    return r;
}

/* text printed back after parsing */
static int prints(const char *text, const char *want)
{
    RxVars v;
    rx_vars_init(&v);
    char err[128], buf[256] = "";
    Rx *e = rx_parse(text, &v, err, sizeof err);
    if (!e)
        return 0;
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    rx_print(f, e, &v);
    fclose(f);
    rx_free(e);
    if (strcmp(buf, want))
        printf("# %s printed as %s, not %s\n", text, buf, want);
    return !strcmp(buf, want);
}

static int refused(const char *text, const char *msg)
{
    RxVars v;
    rx_vars_init(&v);
    char err[128];
    Rx *e = rx_parse(text, &v, err, sizeof err);
    if (e) {
        rx_free(e);
        return 0;
    }
    if (!strstr(err, msg))
        printf("# %s: \"%s\", not \"%s\"\n", text, err, msg);
    return strstr(err, msg) != NULL;
}

static void test_expressions(void)
{
    check(ev("ceil(n/P)*n") == 30, "ceil(10/4)*10 = 30");
    check(ev("floor(n/P) + n - m*2") == 6, "floor(10/4) + 10 - 3*2 = 6");
    check(ev("2^m^2") == 512, "^ binds to the right: 2^(3^2) = 512");
    check(ev("-2^2") == -4, "unary minus below ^: -(2^2)");
    check(ev("n - m - 1") == 6, "- binds to the left: (10 - 3) - 1");
    check(ev("n/P/2") == 1.25, "/ binds to the left: (10/4)/2");
    check(ev("log2(P) + 1") == 3, "log2(4) + 1 = 3");
    check(ev("sqrt(P)*max(n, m)*min(n, m)") == 60, "sqrt(4)*max(10, 3)*min(10, 3) = 60");
    check(ev("(1 + floor(n/3)) * (n*m)") == 120, "(1 + floor(10/3))*(10*3) = 120");
    check(ev("1.5e1 - n") == 5, "a number with an exponent");
    check(isinf(ev("n/(P - 4)")), "division by zero: an infinity, as C gives");
    check(prints("(a + b)*c", "(a + b)*c"), "printed: parentheses kept where needed");
    check(prints("a - (b - c)", "a - (b - c)"), "printed: the right operand of -");
    check(prints("(a - b) - c", "a - b - c"), "printed: no parentheses that are not needed");
    check(prints("a/(b*c)", "a/(b*c)"), "printed: the right operand of /");
    check(prints("(a^b)^c", "(a^b)^c"), "printed: the left operand of ^");
    check(prints("-(a + b)*ceil(n/P)", "-(a + b)*ceil(n/P)"), "printed: minus and a function");
    check(prints("max(1, log2(P))", "max(1, log2(P))"), "printed: a function of two arguments");
    check(refused("n +", "unexpected end"), "refused: an operand missing");
    check(refused("(n + 1", "expected ')'"), "refused: a parenthesis not closed");
    check(refused("cosh(n)", "unknown function 'cosh'"), "refused: an unknown function");
    check(refused("max(n)", "two arguments"), "refused: max of one argument");
    check(refused("n $ 2", "unexpected '$'"), "refused: a character outside the language");
    check(refused("n m", "unexpected 'm'"), "refused: two operands without an operator");
    char deep[1200];
    memset(deep, '(', 600);
    strcpy(deep + 600, "1");
    check(refused(deep, "nested too deeply"), "refused: 600 parentheses deep, not a crash");
    RxVars v;
    rx_vars_init(&v);
    check(v.n == 1 && !strcmp(v.name[0], "P"), "P is variable 0");
    check(rx_var(&v, "nx") == 1 && rx_var(&v, "nx") == 1 && rx_var(&v, "2x") == -1,
          "variables: added once; a name that is no identifier refused");
}

/* [A] section 3.1: loop 273 (vfill) took 4.643 ms for 486,400 iterations
   on Dataset 3a: BASE 9.5456 ns. Its calls are 1 + floor(ZMAX/10), its
   iterations a call NX x NLINE; Dataset 8 (ZMAX 10,000, NX 2,168, NLINE
   1,024): 1,001 x 2,220,032 x 9.5456 ns = 21.21 s, the paper's 21 s */
static void test_loop273(void)
{
    double base = rue_base(4.643e-3, 486400);
    check(near(base, 9.5456e-9, 1e-4), "loop 273: BASE = 4.643 ms / 486,400 = 9.5456 ns");
    check(rue_base(1.0, 0) == 0, "BASE of a loop that never ran: 0");
    Rue r;
    rue_init(&r);
    char err[128];
    int ph = rue_phase(&r, "phase 4");
    Rx *calls = rx_parse("1 + floor(zmax/10)", &r.vars, err, sizeof err);
    Rx *iters = rx_parse("nx*nline", &r.vars, err, sizeof err);
    RueTerm *t = rue_add(&r, RUE_COMP, ph, "loop 273", calls, iters);
    check(t != NULL, "a computation term added");
    if (t) {
        t->base = base;
        double val[RX_MAX_VARS] = {0};
        val[0] = 1;
        val[rx_var(&r.vars, "zmax")] = 10000;
        val[rx_var(&r.vars, "nx")] = 2168;
        val[rx_var(&r.vars, "nline")] = 1024;
        double part[16][RUE_NKIND], pt[16];
        double total = rue_eval(&r, val, part, pt);
        check(near(total, 1001.0 * 2220032.0 * base, 1e-12) && near(total, 21.21, 1e-3),
              "loop 273 on Dataset 8: 1,001 x 2,220,032 x 9.5456 ns = 21.21 s");
        check(part[ph][RUE_COMP] == total && pt[ph] == total && part[ph][RUE_COMM] == 0,
              "loop 273: all of it computation, all of it phase 4");
    }
    rue_free(&r);
}

/* Each kind's formula by hand, at P = 8, n = 1000:
   communication: calls 10, messages 2*(P - 1) = 14, start-up 50 us grown
   by log2 P = 3, 8*n/P = 1000 bytes at 10 ns: 10 x 14 x (150 us + 10 us)
   = 22.4 ms; a read: calls 5, start-up 1 ms x (log2 P + 1) = 4 ms, n*8 =
   8000 bytes at 2 ns = 16 us: 5 x 4.016 ms = 20.08 ms; computation: calls
   n = 1000, ceil(n/P) = 125 iterations at 2 ns = 0.25 ms. */
static void test_terms(void)
{
    Rue r;
    rue_init(&r);
    char err[128];
    int a = rue_phase(&r, "exchange"), b = rue_phase(&r, "io");
    check(rue_phase(&r, "exchange") == a && a == 0 && b == 1, "phases: added once, in order");
    RueTerm *c = rue_add(&r, RUE_COMM, a, "all-to-all", rx_parse("10", &r.vars, err, sizeof err),
                         rx_parse("2*(P - 1)", &r.vars, err, sizeof err));
    RueTerm *d = rue_add(&r, RUE_READ, b, "read traces", rx_parse("5", &r.vars, err, sizeof err),
                         rx_num(1));
    RueTerm *k = rue_add(&r, RUE_COMP, a, "loop", rx_parse("n", &r.vars, err, sizeof err),
                         rx_parse("ceil(n/P)", &r.vars, err, sizeof err));
    check(c && d && k, "three terms added");
    check(!rue_add(&r, RUE_COMP, 7, "x", rx_num(1), rx_num(1)), "a term of no phase refused");
    if (c && d && k) {
        c->base = 50e-6;
        c->grow = rx_parse("log2(P)", &r.vars, err, sizeof err);
        c->bytes = rx_parse("8*n/P", &r.vars, err, sizeof err);
        c->perbyte = 10e-9;
        d->base = 1e-3;
        d->grow = rx_parse("log2(P) + 1", &r.vars, err, sizeof err);
        d->bytes = rx_parse("n*8", &r.vars, err, sizeof err);
        d->perbyte = 2e-9;
        k->base = 2e-9;
        double val[RX_MAX_VARS] = {8};
        val[rx_var(&r.vars, "n")] = 1000;
        check(near(rue_term_time(c, val), 22.4e-3, 1e-12), "communication: 10 x 14 x (150 + 10) us");
        check(near(rue_term_time(d, val), 20.08e-3, 1e-12), "a read: 5 x (4 ms + 16 us)");
        check(near(rue_term_time(k, val), 0.25e-3, 1e-12), "computation: 1000 x 125 x 2 ns");
        double part[16][RUE_NKIND], pt[16];
        double total = rue_eval(&r, val, part, pt);
        check(near(total, 22.4e-3 + 20.08e-3 + 0.25e-3, 1e-12), "the total: the terms' sum");
        check(near(pt[a], 22.65e-3, 1e-12) && near(pt[b], 20.08e-3, 1e-12),
              "each phase: its terms' sum");
        check(near(part[a][RUE_COMM], 22.4e-3, 1e-12) && near(part[b][RUE_READ], 20.08e-3, 1e-12) &&
              part[b][RUE_WRITE] == 0, "each component of each phase");
    }
    rue_free(&r);
}

/* T(P) = a n^2 / P + b log2 P: dT/dP = -a n^2 / P^2 + b / (P ln 2) = 0 at
   P* = a n^2 ln 2 / b. With a = 1 ns, n = 10^4, b = 10 us: P* =
   10^8 x 10^-9 x ln 2 / 10^-5 = 6931.5; on every count 1..2^14 the least
   time is at 6931 or 6932. Communication (the log2 P term) passes
   computation at the first P with 10 us log2 P > 0.1 s / P, that is P
   log2 P > 10^4: just above 1000 (1000 log2 1000 = 9966), before the
   sweet spot. */
static void test_sweet_spot(void)
{
    Rue r;
    rue_init(&r);
    char err[128];
    int ph = rue_phase(&r, "solve");
    RueTerm *c = rue_add(&r, RUE_COMP, ph, "loop", rx_num(1), rx_parse("n^2/P", &r.vars, err, sizeof err));
    RueTerm *m = rue_add(&r, RUE_COMM, ph, "tree", rx_num(1), rx_num(1));
    if (!c || !m) {
        check(0, "the sweet spot's terms");
        rue_free(&r);
        return;
    }
    c->base = 1e-9;
    m->base = 10e-6;
    m->grow = rx_parse("log2(P)", &r.vars, err, sizeof err);
    static double np[1 << 14];
    for (int i = 0; i < 1 << 14; i++)
        np[i] = i + 1;
    double val[RX_MAX_VARS] = {0};
    val[rx_var(&r.vars, "n")] = 1e4;
    double best, t, cross;
    check(rue_sweet_spot(&r, ph, val, np, 1 << 14, &best, &t, &cross) == 0, "a sweet spot found");
    double want = 1e-9 * 1e8 * log(2.0) / 10e-6;
    check(fabs(best - want) <= 1, "sweet spot of a n^2/P + b log2 P at a n^2 ln 2 / b = 6931.5");
    char what[128];
    snprintf(what, sizeof what, "its time: %.6g s, T(P*) by hand", t);
    check(near(t, 1e-9 * 1e8 / best + 10e-6 * log2(best), 1e-12), what);
    /* the crossing by hand: the first integer P with 1e-5 log2 P > 0.1/P */
    double want_cross = 0;
    for (int p = 1; p <= 1 << 14 && !want_cross; p++)
        if (1e-5 * log2(p) > 0.1 / p)
            want_cross = p;
    check(cross == want_cross && cross > 1000 && cross < best,
          "communication overtakes computation before the sweet spot");
    check(rue_sweet_spot(&r, ph, val, np, 0, &best, &t, &cross) == -1, "no counts: refused");
    rue_free(&r);
}

/* The fit: profiles made from known constants, then the constants set
   to 0 and fitted back. A loop at line 10 (n*n/P iterations, BASE 9.55
   ns) and an exchange at line 20 (2*(P - 1) messages a call, 20 calls,
   start-up 40 us grown by log2 P, 8*n/P bytes at 5 ns), runs at n = 1000,
   2000, 4000 on P = 2, 4, 8, 16: both constants of the exchange and the
   loop's BASE come back; with each sample 1% off either way, within 3%;
   one run alone gives the papers' BASE = time / iterations. */
static double fit_model(int line, double n, double p)
{
    if (line == 10)
        return n * n / p * 9.55e-9;
    return 20 * 2 * (p - 1) * (40e-6 * log2(p) + 8 * n / p * 5e-9);
}

static Rue fit_rue(void)
{
    Rue r;
    rue_init(&r);
    char err[128];
    int ph = rue_phase(&r, "main");
    RueTerm *c = rue_add(&r, RUE_COMP, ph, "loop", rx_num(1), rx_parse("n*n/P", &r.vars, err, sizeof err));
    RueTerm *m = rue_add(&r, RUE_COMM, ph, "exchange", rx_num(20),
                         rx_parse("2*(P - 1)", &r.vars, err, sizeof err));
    if (c && m) {
        c->line = 10;
        m->line = 20;
        m->grow = rx_parse("log2(P)", &r.vars, err, sizeof err);
        m->bytes = rx_parse("8*n/P", &r.vars, err, sizeof err);
    }
    return r;
}

static void test_fit(void)
{
    for (int noisy = 0; noisy <= 1; noisy++) {
        Rue r = fit_rue();
        RueSample s[24];
        int ns = 0, nvar = rx_var(&r.vars, "n");
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 4; b++)
                for (int line = 10; line <= 20; line += 10) {
                    double n = 1000 << a, p = 2 << b;
                    RueSample *x = &s[ns++];
                    memset(x, 0, sizeof *x);
                    x->val[0] = p;
                    x->val[nvar] = n;
                    x->line = line;
                    x->kind = line == 10 ? RUE_COMP : RUE_COMM;
                    /* noise: +1% and -1% in turn over the runs */
                    x->seconds = fit_model(line, n, p) * (noisy ? ((a + b) % 2 ? 1.01 : 0.99) : 1);
                }
        RueFitGroup g[4];
        int ng = rue_fit(&r, s, ns, g, 4);
        double tol = noisy ? 0.03 : 1e-9;
        const RueTerm *c = &r.term[0], *m = &r.term[1];
        char what[160];
        snprintf(what, sizeof what, "fit%s: two groups, BASE %.4g ns (9.55)", noisy ? ", 1% noise" : "",
                 c->base * 1e9);
        check(ng == 2 && near(c->base, 9.55e-9, tol), what);
        snprintf(what, sizeof what, "fit%s: start-up %.4g us (40), per-byte %.4g ns (5), both fitted",
                 noisy ? ", 1% noise" : "", m->base * 1e6, m->perbyte * 1e9);
        check(ng == 2 && g[1].both && near(m->base, 40e-6, tol) && near(m->perbyte, 5e-9, tol), what);
        check(ng == 2 && g[0].nsample == 12 && (noisy ? g[0].rms > 0.001 && g[0].rms < 0.02
                                                      : g[0].rms < 1e-9),
              noisy ? "fit with noise: the residual says so (about 1%)" : "fit: no residual");
        rue_free(&r);
    }
    /* one run: BASE = time / iterations, 4.643 ms over 486,400 */
    Rue r;
    rue_init(&r);
    int ph = rue_phase(&r, "phase 4");
    RueTerm *t = rue_add(&r, RUE_COMP, ph, "loop 273", rx_num(1), rx_num(486400));
    if (t) {
        t->line = 273;
        RueSample one = {{4}, 273, RUE_COMP, 4.643e-3};
        RueFitGroup g;
        check(rue_fit(&r, &one, 1, &g, 1) == 1 && near(t->base, rue_base(4.643e-3, 486400), 1e-12) &&
              !g.both, "fit of one run: the papers' BASE");
        RueSample none = {{4}, 999, RUE_COMP, 1.0};
        check(rue_fit(&r, &none, 1, &g, 1) == 0 && near(t->base, 9.5456e-9, 1e-4),
              "a sample of no term: nothing fitted, nothing changed");
    }
    rue_free(&r);
}

/* the busiest processor's cells of lo..hi in BLOCKs of ceil(n/q), counted
   cell by cell */
static double share_by_hand(int lo, int hi, int n, int q)
{
    int b = (n + q - 1) / q, most = 0;
    if (b < 1)
        b = 1;
    for (int p = 0; p < q; p++) {
        int k = 0;
        for (int c = lo; c <= hi; c++)
            k += (c - 1) / b == p;
        if (k > most)
            most = k;
    }
    return most;
}

static double ev_with(const char *text, double p, double n)
{
    RxVars v;
    rx_vars_init(&v);
    char err[128];
    Rx *e = rx_parse(text, &v, err, sizeof err);
    if (!e) {
        printf("# %s: %s\n", text, err);
        return NAN;
    }
    double val[RX_MAX_VARS] = {p, n};
    double r = rx_eval(e, val);
    rx_free(e);
    return r;
}

static void test_mapping(void)
{
    /* bshare against counting, over every range of every small dimension */
    int bad = 0, cases = 0;
    for (int n = 1; n <= 23; n++)
        for (int q = 1; q <= 9; q++)
            for (int lo = 1; lo <= n; lo++)
                for (int hi = lo - 1; hi <= n; hi++) {
                    char t[96];
                    snprintf(t, sizeof t, "bshare(%d, %d, n, P)", lo, hi);
                    cases++;
                    if (ev_with(t, q, n) != share_by_hand(lo, hi, n, q) && bad++ < 3)
                        printf("# %s with n = %d, P = %d: %g, by hand %g\n", t, n, q,
                               ev_with(t, q, n), share_by_hand(lo, hi, n, q));
                }
    char what[160];
    snprintf(what, sizeof what, "bshare(lo, hi, n, P) is the busiest processor's count in %d "
             "cases", cases);
    check(!bad, what);
    check(ev_with("bshare(2, n - 1, n, P)", 3, 100) == 34,
          "by hand: 2..99 of 100 in blocks of 34 over 3: 33, 34, 31");
    /* hpfmap_grid_shape's examples (hpfmap.h) */
    check(ev_with("pgrid(P, 2, 1)", 8, 0) == 4 && ev_with("pgrid(P, 2, 2)", 8, 0) == 2,
          "pgrid: 8 over rank 2 is 4 x 2");
    check(ev_with("pgrid(P, 3, 1)*10 + pgrid(P, 3, 2) + pgrid(P, 3, 3)/10", 12, 0) == 32.2,
          "pgrid: 12 over rank 3 is 3 x 2 x 2");
    check(ev_with("pgrid(P, 2, 1, 1, 2)", 2, 0) == 1 && ev_with("pgrid(P, 2, 1, 1, 2)", 8, 0) == 4,
          "pgrid's declared form: kept where it multiplies to P (1 x 2 of 2), re-formed "
          "elsewhere");
    check(refused("pgrid(P, 2, 3)", "d of 1 to r") && refused("pgrid(P, n, 1)", "takes numbers")
          && refused("pgrid(P, 2)", "three or five"), "pgrid refused: a dimension past the rank, "
          "a rank not a number, too few arguments");
    check(prints("bshare(2, n - 1, n, P)*pgrid(P, 2, 1, floor(P/2), floor(P/2)*2)",
                 "bshare(2, n - 1, n, P)*pgrid(P, 2, 1, floor(P/2), floor(P/2)*2)"),
          "bshare and pgrid printed as they are read");
    /* simplification: the same value, fewer operations */
    RxVars v;
    rx_vars_init(&v);
    char err[128];
    Rx *e = rx_simplify(rx_parse("max(0, floor((n - 1 + 1 - 1 + 1)/1))*1 + 0*m", &v, err,
                                 sizeof err));
    char buf[128] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    rx_print(f, e, &v);
    fclose(f);
    if (strcmp(buf, "n"))
        printf("# got %s\n", buf);
    check(!strcmp(buf, "n"), "simplified: max(0, floor((n - 1 + 1 - 1 + 1)/1))*1 + 0*m is n");
    Rx *g = rx_parse("n", &v, err, sizeof err), *h = rx_parse("n + 0", &v, err, sizeof err);
    check(rx_equal(e, g) && !rx_equal(g, h), "rx_equal: the same tree, not the same value");
    rx_free(e);
    rx_free(g);
    rx_free(h);
    e = rx_simplify(rx_parse("floor(n/2) + ceil(n/P)", &v, err, sizeof err));
    double val[RX_MAX_VARS] = {3, 7};
    check(e && rx_eval(e, val) == 3 + 3, "simplified: floor and ceil of a division kept");
    rx_free(e);
}

int main(void)
{
    test_expressions();
    test_mapping();
    test_loop273();
    test_terms();
    test_sweet_spot();
    test_fit();
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
