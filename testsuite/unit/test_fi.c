/* test_fi.c - the functional interpreter: small programs compiled from
 * strings and run as the interpretation engine runs them (leaf statements
 * through fi_exec, DO and IF by the driver here, CALL through fi_enter and
 * fi_leave), then their values checked; with the iteration spaces and the
 * gathered subscripts of fi_space and fi_refs, libm and an EXTERNAL
 * function through libffi, READ data, missing values and their report, -D
 * and the step budget. Prints TAP; exits 1 when a check failed. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fi.h"
#include "frontend.h"

#include "tap.h"

/* An EXTERNAL function of the programs below, found as `myfun_` with
 * dlsym (the test is linked with -rdynamic), its argument by reference. */
double myfun_(double *x);
double myfun_(double *x)
{
    return 3 * *x + 1;
}

/* ---- compiling and running ---- */

typedef struct Prog Prog;
typedef void (*Hook)(Prog *pr, const SpStmt *s);

struct Prog {
    Arena *a;
    SrcFile *f;
    SpProgram *p;
    Fi *fi;
    Diag d;
    FILE *dout;
    char *dbuf;                   /* what was reported */
    size_t dlen;
    Hook before_loop;             /* called before each FORALL and reduction */
};

static int compile(Prog *pr, const char *text)
{
    memset(pr, 0, sizeof *pr);
    pr->a = arena_new("test_fi");
    pr->f = srcfile_from_bytes("t.f90", text, strlen(text));
    pr->dout = open_memstream(&pr->dbuf, &pr->dlen);
    diag_init(&pr->d, pr->dout);
    Node *file = frontend_compile(pr->f, FORM_FREE, pr->a, &pr->d, NULL, 0);
    pr->p = file ? spmd_lower(file, pr->a, &pr->d) : NULL;
    if (!pr->p) {
        fflush(pr->dout);
        printf("# does not compile:\n%s", pr->dbuf);
    }
    return pr->p != NULL;
}

static int start(Prog *pr, FiOptions *o)
{
    o->prog = pr->p;
    pr->fi = pr->p ? fi_new(o, &pr->d) : NULL;
    return pr->fi != NULL;
}

static const char *diag_text(Prog *pr)
{
    fflush(pr->dout);
    return pr->dbuf ? pr->dbuf : "";
}

static void finish(Prog *pr)
{
    fi_free(pr->fi);
    fclose(pr->dout);
    free(pr->dbuf);
    srcfile_free(pr->f);
    arena_free(pr->a);
}

static const SpUnit *unit_named(const SpProgram *p, const char *name)
{
    for (int i = 0; i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (u->unit->u.unit.id && !strcmp(u->unit->u.unit.id, name))
            return u;
    }
    return NULL;
}

static int run_list(Prog *pr, const PtrVec *v);

/* What the engine does with a statement; 1 at STOP, 2 at RETURN, -1 when
 * interpretation must stop. */
static int run_stmt(Prog *pr, const SpStmt *s)
{
    Fi *fi = pr->fi;
    switch (s->kind) {
    case SP_DO: {
        long long lo, hi, st = 1;
        int kl = fi_eval_int(fi, s->u.do_.lo, &lo), kh = fi_eval_int(fi, s->u.do_.hi, &hi);
        if (!kl || !kh || (s->u.do_.st && !fi_eval_int(fi, s->u.do_.st, &st))) {
            fi_missing(fi, kl ? s->u.do_.hi : s->u.do_.lo, s->line, "the trip count of a DO loop");
            return -1;
        }
        const Symbol *var = s->u.do_.var->u.name.sym;
        long long v = lo;
        for (; st > 0 ? v <= hi : v >= hi; v += st) {
            fi_set_int(fi, var, v);
            int r = run_list(pr, &s->u.do_.body);
            if (r)
                return r;
        }
        fi_set_int(fi, var, v);
        return 0;
    }
    case SP_IF:
        for (int i = 0; i < s->u.if_.branches.n; i++) {
            const SpBranch *b = s->u.if_.branches.v[i];
            int r = run_list(pr, &b->pre), c = 1;
            if (r)
                return r;
            if (b->cond && !fi_eval_bool(fi, b->cond, &c)) {
                fi_missing(fi, b->cond, s->line, "the condition of an IF");
                return -1;
            }
            if (c)
                return run_list(pr, &b->body);
        }
        return 0;
    case SP_SEQ:
        if (s->u.seq->kind == AST_CALL) {
            const SpUnit *u = unit_named(pr->p, s->u.seq->u.ref.id);
            if (!u)
                break;
            fi_enter(fi, u, s->u.seq);
            int r = run_list(pr, &u->body);
            fi_leave(fi);
            return r == 2 ? 0 : r;
        }
        break;
    case SP_STOP:
        return 1;
    case SP_RETURN:
        return 2;
    case SP_FORALL: case SP_REDUCE:
        if (pr->before_loop)
            pr->before_loop(pr, s);
        break;
    default:
        break;
    }
    return fi_exec(fi, s);
}

static int run_list(Prog *pr, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++) {
        int r = run_stmt(pr, v->v[i]);
        if (r)
            return r;
    }
    return 0;
}

static int run(Prog *pr)
{
    return run_list(pr, &((const SpUnit *)pr->p->units.v[0])->body);
}

/* ---- values ---- */

static int value(Prog *pr, const char *name, FiValue *v)
{
    const SpUnit *u = pr->p->units.v[0];
    Node n = {0};
    n.kind = AST_NAME;
    n.u.name.id = name;
    n.u.name.sym = scope_lookup(u->scope, name);
    if (!n.u.name.sym) {
        memset(v, 0, sizeof *v);
        return 0;
    }
    n.type = n.u.name.sym->type;
    return fi_eval(pr->fi, &n, v);
}

/* Element (i) or (i, j) of an array of the main program. */
static int element(Prog *pr, const char *name, int nsub, long long i, long long j, FiValue *v)
{
    const SpUnit *u = pr->p->units.v[0];
    Node n = {0}, k[2] = {{0}, {0}};
    n.kind = AST_REF;
    n.u.ref.id = name;
    n.u.ref.sym = scope_lookup(u->scope, name);
    n.u.ref.what = REF_ELEMENT;
    long long s[2] = {i, j};
    for (int d = 0; d < nsub; d++) {
        k[d].kind = AST_INT_CONST;
        k[d].type = (Type){TY_INTEGER, 4};
        k[d].u.konst.ival = s[d];
        vec_push(NULL, &n.u.ref.args, &k[d]);
    }
    n.type = n.u.ref.sym ? n.u.ref.sym->type : (Type){TY_NONE, 0};
    int known = n.u.ref.sym && fi_eval(pr->fi, &n, v);
    free(n.u.ref.args.v);
    return known;
}

static int int_is(Prog *pr, const char *name, long long want)
{
    FiValue v;
    int k = value(pr, name, &v);
    if (!k || v.i != want)
        printf("# %s: %s %lld, want %lld\n", name, k ? "got" : "unknown", v.i, want);
    return k && v.i == want;
}

static int real_is(Prog *pr, const char *name, double want)
{
    FiValue v;
    int k = value(pr, name, &v);
    if (!k || v.r != want)
        printf("# %s: %s %.17g, want %.17g\n", name, k ? "got" : "unknown", v.r, want);
    return k && v.r == want;
}

static int elem_is(Prog *pr, const char *name, long long i, double want)
{
    FiValue v;
    int k = element(pr, name, 1, i, 0, &v);
    double got = v.type.base == TY_INTEGER ? (double)v.i : v.r;
    if (!k || got != want)
        printf("# %s(%lld): %s %.17g, want %.17g\n", name, i, k ? "got" : "unknown", got, want);
    return k && got == want;
}

static const SpStmt *stmt_at(const SpProgram *p, int line)
{
    const SpUnit *u = p->units.v[0];
    for (int i = 0; i < u->body.n; i++)
        if (((const SpStmt *)u->body.v[i])->line == line)
            return u->body.v[i];
    return NULL;
}

/* ---- scalar arithmetic ---- */

static void arithmetic(void)
{
    static const char *text =
        "program arith\n"
        "  implicit none\n"
        "  integer :: i, j, k, m\n"
        "  real(8) :: x, y\n"
        "  real :: r4\n"
        "  logical :: l\n"
        "  complex(8) :: z\n"
        "  character(len=6) :: s\n"
        "  i = 7\n"
        "  j = -7 / 2\n"
        "  k = 2**10 + mod(-7, 3)\n"
        "  m = 2147483647\n"
        "  m = m + 1\n"
        "  x = 1.5d0 * 4 + 2 ** (-1)\n"
        "  y = sign(3.0d0, -1.0d0) + abs(-2.5d0) + dble(nint(2.5d0)) + max(1.0d0, 4.0d0, 2.0d0)\n"
        "  r4 = 0.1\n"
        "  r4 = r4 * 3.0\n"
        "  l = (i > 3 .and. .not. (j == 0)) .neqv. .false.\n"
        "  z = (1.0d0, 2.0d0) * (0.0d0, 1.0d0)\n"
        "  s = 'ab' // 'cd'\n"
        "end program\n";
    Prog pr;
    FiOptions o = {0};
    if (!compile(&pr, text) || !start(&pr, &o)) {
        check(0, "the arithmetic program compiles");
        finish(&pr);
        return;
    }
    check(run(&pr) == 0, "the arithmetic program runs");
    check(int_is(&pr, "i", 7), "an integer assignment");
    check(int_is(&pr, "j", -3), "integer division truncates toward zero");
    check(int_is(&pr, "k", 1023), "integer power is exact, MOD keeps the dividend's sign");
    check(int_is(&pr, "m", -2147483647LL - 1), "INTEGER(4) arithmetic wraps at 32 bits");
    check(real_is(&pr, "x", 6.0), "mixed REAL(8)*INTEGER promotes; 2**(-1) is 0");
    check(real_is(&pr, "y", 6.5), "SIGN ABS NINT DBLE MAX");
    check(real_is(&pr, "r4", (double)(0.1f * 3.0f)), "REAL(4) arithmetic is rounded to float");
    FiValue v;
    check(value(&pr, "l", &v) && v.type.base == TY_LOGICAL && v.i == 1,
          ".and. .not. .neqv. on logicals");
    check(value(&pr, "z", &v) && v.r == -2.0 && v.im == 1.0, "complex multiplication");
    check(value(&pr, "s", &v) && v.s && !strcmp(v.s, "abcd  "),
          "concatenation, blank-padded to CHARACTER(len=6)");
    finish(&pr);
}

/* ---- arrays: FORALL, WHERE, reductions, gathers, calls ---- */

static void arrays_hook(Prog *pr, const SpStmt *s)
{
    const SpLoop *lp = s->u.loop;
    FiSpace sp;
    FiRefs rf;
    switch (s->line) {
    case 14: {                     /* forall (i = 1:n, mod(i, 3) == 0) */
        int ok = fi_space(pr->fi, lp, &sp);
        long nm = 0;
        for (long p = 0; ok && sp.mask && p < sp.n; p++)
            nm += sp.mask[p];
        check(ok && sp.n == 10 && sp.nidx == 1 && sp.idx[0][0] == 1 && sp.idx[0][9] == 10,
              "fi_space: the FORALL's points and index values");
        check(ok && sp.mask && nm == 3 && sp.mask[2] && !sp.mask[3],
              "fi_space: the FORALL mask holds at 3 points");
        break;
    }
    case 15: {                     /* where (a > 5.0d0) */
        int ok = fi_space(pr->fi, lp, &sp);
        long nm = 0;
        for (long p = 0; ok && sp.mask && p < sp.n; p++)
            nm += sp.mask[p];
        check(ok && nm == 5 && !sp.mask[4] && sp.mask[5], "fi_space: the WHERE mask");
        break;
    }
    case 20: {                     /* c(i) = a(ix(i)) */
        const SpGather *g = lp->gathers.n ? lp->gathers.v[0] : NULL;
        int ok = g && fi_refs(pr->fi, lp, g->ref, g->ctx, &rf);
        check(ok && rf.n == 10 && rf.rank == 1 && rf.sub[0][0] == 10 && rf.sub[0][9] == 1
              && rf.point[9] == 9, "fi_refs: subscripts gathered through an index vector");
        break;
    }
    case 22: {                     /* rs(i) = sum(m2(i, :)) */
        const SpGather *g = lp->gathers.n ? lp->gathers.v[0] : NULL;
        int ok = g && fi_refs(pr->fi, lp, g->ref, g->ctx, &rf);
        check(ok && rf.n == 40 && rf.rank == 2 && rf.point[5] == 1 && rf.sub[0][5] == 2
              && rf.sub[1][5] == 2 && rf.point[39] == 9,
              "fi_refs: one evaluation per trip of the inline reduction sum(m2(i, :))");
        break;
    }
    default:
        break;
    }
}

static void arrays(void)
{
    static const char *text =
        "program arrays\n"
        "  implicit none\n"
        "  integer, parameter :: n = 10\n"
        "  integer :: i, j, imax, f5, fv(4)\n"
        "  real(8) :: a(n), b(n), c(n), rs(n), m2(n, 4), w(3)\n"
        "  integer :: ix(n)\n"
        "  real(8) :: s, mx, e1, at, ev, myfun\n"
        "  real :: sq\n"
        "  external myfun\n"
        "!HPF$ DISTRIBUTE (BLOCK) :: a, b, c, ix, rs\n"
        "!HPF$ DISTRIBUTE (*, BLOCK) :: m2\n"
        "  forall (i = 1:n) a(i) = dble(i)\n"
        "  b = 0.0d0\n"
        "  forall (i = 1:n, mod(i, 3) == 0) b(i) = -a(i)\n"
        "  where (a > 5.0d0) b = 7.0d0\n"
        "  s = sum(b)\n"
        "  mx = maxval(a, mask = a < 8.0d0)\n"
        "  imax = maxloc(b, 1)\n"
        "  forall (i = 1:n) ix(i) = n + 1 - i\n"
        "  forall (i = 1:n) c(i) = a(ix(i))\n"
        "  forall (i = 1:n, j = 1:4) m2(i, j) = dble(i * j)\n"
        "  forall (i = 1:n) rs(i) = sum(m2(i, :))\n"
        "  e1 = exp(1.0d0)\n"
        "  at = atan2(1.0d0, 1.0d0)\n"
        "  sq = sqrt(2.0)\n"
        "  ev = myfun(2.0d0)\n"
        "  forall (i = 1:4) fv(i) = fact(i)\n"
        "  f5 = fact(5) + 1\n"
        "  w = 1.0d0\n"
        "  call bump(w, 2)\n"
        "contains\n"
        "  integer function fact(k)\n"
        "    integer, intent(in) :: k\n"
        "    integer :: q\n"
        "    fact = 1\n"
        "    do q = 2, k\n"
        "      fact = fact * q\n"
        "    end do\n"
        "  end function fact\n"
        "  subroutine bump(v, k)\n"
        "    real(8), intent(inout) :: v(:)\n"
        "    integer, intent(in) :: k\n"
        "    v(k) = v(k) + 10.0d0\n"
        "    v = v * 2.0d0\n"
        "  end subroutine bump\n"
        "end program\n";
    Prog pr;
    FiOptions o = {0};
    if (!compile(&pr, text) || !start(&pr, &o)) {
        check(0, "the array program compiles");
        finish(&pr);
        return;
    }
    pr.before_loop = arrays_hook;
    check(run(&pr) == 0, "the array program runs");
    check(real_is(&pr, "s", 32.0), "SUM after a masked FORALL and a WHERE");
    check(real_is(&pr, "mx", 7.0), "MAXVAL with MASK=");
    check(int_is(&pr, "imax", 6), "MAXLOC: the first of equal maxima");
    check(elem_is(&pr, "c", 1, 10.0) && elem_is(&pr, "c", 10, 1.0),
          "a gather through an index vector");
    check(elem_is(&pr, "rs", 3, 30.0), "an inline reduction sum(m2(i, :)) per point");
    check(real_is(&pr, "e1", exp(1.0)), "exp through libffi");
    check(real_is(&pr, "at", atan2(1.0, 1.0)), "atan2 through libffi");
    check(real_is(&pr, "sq", (double)sqrtf(2.0f)), "REAL(4) sqrt is sqrtf through libffi");
    check(real_is(&pr, "ev", 7.0), "an EXTERNAL function: myfun_ found with dlsym");
    check(elem_is(&pr, "fv", 4, 24.0), "a user FUNCTION called at every point of a FORALL");
    check(int_is(&pr, "f5", 121), "a user FUNCTION in an expression, its DO loop run by fi");
    check(elem_is(&pr, "w", 2, 22.0) && elem_is(&pr, "w", 1, 2.0),
          "a SUBROUTINE through fi_enter/fi_leave: the array bound by reference");
    finish(&pr);
}

/* ---- READ ---- */

static char *input_file(const char *data)
{
    char *path = xstrdup("/tmp/test_fi_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, data, strlen(data)) != (ssize_t)strlen(data)) {
        perror("test_fi: input file");
        exit(1);
    }
    close(fd);
    return path;
}

static void reading(void)
{
    static const char *text =
        "program rd\n"
        "  implicit none\n"
        "  integer :: n1, n2, v(3)\n"
        "  real(8) :: x1\n"
        "  logical :: flag\n"
        "  read *, n1, x1\n"
        "  read *, n2, flag\n"
        "  read *, v\n"
        "end program\n";
    char *path = input_file("3 2.5d0 99\n7, .true.\n1 2*5\n");
    Prog pr;
    FiOptions o = {0};
    o.input = path;
    if (!compile(&pr, text) || !start(&pr, &o)) {
        check(0, "the READ program compiles");
    } else {
        check(run(&pr) == 0, "the READ program runs");
        check(int_is(&pr, "n1", 3) && real_is(&pr, "x1", 2.5), "READ: list-directed values");
        check(int_is(&pr, "n2", 7), "READ: a new READ starts a new record");
        FiValue v;
        check(value(&pr, "flag", &v) && v.i == 1, "READ: a logical, after a comma");
        check(elem_is(&pr, "v", 1, 1) && elem_is(&pr, "v", 3, 5), "READ: an array, with 2*5");
    }
    finish(&pr);
    unlink(path);
    free(path);
}

static void missing(void)
{
    static const char *text =
        "program ms\n"
        "  implicit none\n"
        "  integer :: n, i, k, u\n"
        "  real(8) :: t\n"
        "  read *, n\n"
        "  k = n * 2\n"
        "  t = 0.0d0\n"
        "  do i = 1, k\n"
        "    t = t + 1.0d0\n"
        "  end do\n"
        "  u = u + 1\n"
        "end program\n";
    Prog pr;
    FiOptions o = {0};
    if (!compile(&pr, text) || !start(&pr, &o)) {
        check(0, "the missing-value program compiles");
        finish(&pr);
        return;
    }
    check(run(&pr) < 0, "a DO loop whose bound is not known stops the run");
    FiValue v;
    check(!value(&pr, "k", &v), "a value computed from a READ without data is not known");
    const SpStmt *s = stmt_at(pr.p, 11);
    if (s && s->kind == SP_SEQ)
        fi_missing(pr.fi, s->u.seq->u.assign.rhs, 11, "the test");
    check(fi_nmissing(pr.fi) == 2, "fi_missing records each variable behind an unknown value");
    int n = fi_report(pr.fi, &pr.d);
    const char *t = diag_text(&pr);
    check(n == 2 && strstr(t, "t.f90:8:") && strstr(t, "error: value of 'n' needed for the trip "
          "count of a DO loop at line 8 is not known; give it with -D n=VALUE or --input FILE"),
          "fi_report: the error names the variable read, not the one computed from it");
    check(strstr(t, "t.f90:5:3: note: 'n' is read at line 5") != NULL,
          "fi_report: a note where it was read");
    check(strstr(t, "value of 'u' needed for the test at line 11") != NULL
          && strstr(t, "'u' is never given a value") != NULL,
          "fi_report: a variable never assigned");
    if (tap_failed)
        printf("# %s", t);
    finish(&pr);
}

/* ---- -D, the step budget ---- */

static void defines(void)
{
    static const char *text =
        "program dd\n"
        "  implicit none\n"
        "  integer :: n, m\n"
        "  n = 5\n"
        "  read *, n\n"
        "  m = n * 2\n"
        "end program\n";
    char *path = input_file("3\n");
    FiDefine defs[2] = {{"n", "12"}, {"nosuch", "1"}};
    Prog pr;
    FiOptions o = {0};
    o.input = path;
    o.defs = defs;
    o.ndefs = 2;
    if (!compile(&pr, text) || !start(&pr, &o)) {
        check(0, "the -D program compiles");
    } else {
        check(run(&pr) == 0, "the -D program runs");
        check(int_is(&pr, "n", 12) && int_is(&pr, "m", 24),
              "-D holds a variable: its assignment and READ are ignored");
        check(strstr(diag_text(&pr), "warning: -D nosuch: no PARAMETER or variable of that name")
              != NULL, "-D of an unknown name is warned about");
    }
    finish(&pr);
    unlink(path);
    free(path);
}

static void budget(void)
{
    static const char *big =
        "program big\n"
        "  implicit none\n"
        "  integer :: i\n"
        "  real(8) :: a(200000)\n"
        "  forall (i = 1:200000) a(i) = 1.0d0\n"
        "end program\n";
    static const char *spin =
        "program sp\n"
        "  implicit none\n"
        "  integer :: k\n"
        "  k = spin(3)\n"
        "contains\n"
        "  integer function spin(j)\n"
        "    integer, intent(in) :: j\n"
        "    integer :: q\n"
        "    q = j\n"
        "    do while (q > 0)\n"
        "      q = q + 1\n"
        "    end do\n"
        "    spin = q\n"
        "  end function spin\n"
        "end program\n";
    Prog pr;
    FiOptions o = {0};
    o.max_steps = 1000;
    if (!compile(&pr, big) || !start(&pr, &o)) {
        check(0, "the budget program compiles");
    } else {
        check(run(&pr) < 0 && fi_stopped(pr.fi), "a FORALL past the step budget stops");
        FiValue v;
        check(!element(&pr, "a", 1, 1, 0, &v), "once stopped, values are not known");
        int n = fi_report(pr.fi, &pr.d);
        check(n == 1 && strstr(diag_text(&pr), "error: functional interpretation stopped after")
              && strstr(diag_text(&pr), "raise --max-steps or give the values with -D"),
              "fi_report: the step budget was spent");
    }
    finish(&pr);
    if (!compile(&pr, spin) || !start(&pr, &o)) {
        check(0, "the endless-loop program compiles");
    } else {
        check(run(&pr) < 0 && fi_stopped(pr.fi) && fi_steps(pr.fi) > 1000,
              "an endless DO WHILE in a function stops at the budget");
    }
    finish(&pr);
}

int main(void)
{
    arithmetic();
    arrays();
    reading();
    missing();
    defines();
    budget();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
