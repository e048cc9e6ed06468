/* test_remap.c - alternative data mappings (frontend/remap.c): the
 * candidates of the examples, their labels and directives, the user's
 * spec and its errors, and every candidate of every example compiled
 * under its mapping and lowered to SPMD code without a diagnostic. The
 * rewrite is checked against the program as written: applying the own
 * mapping changes nothing in the SPMD IR, and laplace_bb.f90 remapped to
 * (BLOCK,*) lowers to the IR of laplace_bs.f90. Prints TAP. */
#include <config.h>

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "spmd.h"
#include "tap.h"

static const char *srcdir;

/* One compilation: its arena, diagnostics (to a buffer) and tree. */
typedef struct {
    Arena *arena;
    SrcFile *file;
    Diag diag;
    FILE *out;
    char *msgs;
    size_t len;
    Node *ast;
} Comp;

static void comp_open(Comp *c, SrcFile *f)
{
    memset(c, 0, sizeof *c);
    c->arena = arena_new("test");
    c->file = f;
    c->out = open_memstream(&c->msgs, &c->len);
    diag_init(&c->diag, c->out);
}

/* The diagnostics so far, as text. */
static const char *comp_msgs(Comp *c)
{
    fflush(c->out);
    return c->msgs ? c->msgs : "";
}

static void comp_close(Comp *c)
{
    fclose(c->out);
    free(c->msgs);
    arena_free(c->arena);
    c->arena = NULL;
}

static SrcFile *read_example(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", srcdir, rel);
    char *err = NULL;
    SrcFile *f = srcfile_read(path, &err);
    if (!f) {
        printf("# cannot read %s: %s\n", path, err);
        free(err);
    }
    return f;
}

static SrcFile *from_text(const char *text)
{
    return srcfile_from_bytes("t.f90", text, strlen(text));
}

static SourceForm form_of(const SrcFile *f)
{
    return src_form_of(f->name);
}

/* The program as written, checked. */
static Node *compile(Comp *c, SrcFile *f)
{
    comp_open(c, f);
    c->ast = frontend_compile(f, form_of(f), c->arena, &c->diag, NULL, 0);
    return c->ast;
}

static int candidates(Comp *c, int np, Remap **v, long *total)
{
    return remap_candidates(c->ast, np, v, total);
}

static char *label(const Remap *r)
{
    return remap_string(r, REMAP_LABEL);
}

/* The SPMD IR of a file under r (NULL: as written), or NULL with the
 * diagnostics in *msgs (heap) when it does not compile, lower, or is not
 * clean (warnings count). */
static char *spmd_text(SrcFile *f, const Remap *r, char **msgs)
{
    Comp c;
    comp_open(&c, f);
    Node *ast = frontend_compile_remapped(f, form_of(f), c.arena, &c.diag, NULL, 0, r);
    SpProgram *sp = ast ? spmd_lower(ast, c.arena, &c.diag) : NULL;
    char *text = NULL;
    if (sp && !c.diag.nerrors && !c.diag.nwarnings) {
        size_t len;
        FILE *m = open_memstream(&text, &len);
        spmd_dump(m, sp);
        fclose(m);
    }
    *msgs = xstrdup(comp_msgs(&c));
    comp_close(&c);
    return text;
}

/* ---- candidates ---- */

static void test_laplace(void)
{
    static const char *const expect[] = {
        "temp(BLOCK,BLOCK) on prc(2,2)", "temp(BLOCK,*) on prc(4)", "temp(*,BLOCK) on prc(4)",
        "temp(BLOCK,CYCLIC) on prc(2,2)", "temp(*,CYCLIC) on prc(4)",
        "temp(CYCLIC,BLOCK) on prc(2,2)", "temp(CYCLIC,*) on prc(4)",
        "temp(CYCLIC,CYCLIC) on prc(2,2)",
    };
    SrcFile *f = read_example("examples/laplace_bb.f90");
    Comp c;
    if (!f || !compile(&c, f)) {
        check(0, "laplace_bb.f90 compiles");
        return;
    }
    Remap *v;
    long total;
    int n = candidates(&c, 4, &v, &total);
    check(n == 8 && total == 8, "laplace_bb at np=4: 8 mappings");
    check(v[0].own, "laplace_bb: the program's own mapping comes first");
    int same = n == 8;
    for (int i = 0; i < n && i < 8; i++) {
        char *s = label(&v[i]);
        if (strcmp(s, expect[i])) {
            printf("# candidate %d: '%s', expected '%s'\n", i, s, expect[i]);
            same = 0;
        }
        free(s);
    }
    check(same, "laplace_bb at np=4: (BLOCK,BLOCK) on 2x2, (BLOCK,*) and (*,BLOCK) on 4, "
          "then CYCLIC, in order");
    int distinct = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            distinct &= !remap_equal(&v[i], &v[j]);
    check(distinct, "laplace_bb: no mapping twice");
    free(v);

    /* 8 processors: 2-D grids 2x4 and 4x2; the program's prc(2,2) runs
       re-formed as 4x2 (runtime/hpfmap.c), so (BLOCK,BLOCK) on 4x2 is the
       own mapping, labelled as it runs and not listed twice */
    n = candidates(&c, 8, &v, &total);
    int has24 = 0, has42 = 0;
    char *own8 = label(&v[0]);
    for (int i = 0; i < n; i++) {
        char *s = label(&v[i]);
        has24 |= !strcmp(s, "temp(BLOCK,BLOCK) on prc(2,4)");
        has42 |= !strcmp(s, "temp(BLOCK,BLOCK) on prc(4,2)");
        free(s);
    }
    check(n == 12 && total == 12 && has24 && !has42
          && !strcmp(own8, "temp(BLOCK,BLOCK) on prc(4,2) re-formed from (2,2)"),
          "laplace_bb at np=8: own (prc(2,2) re-formed as 4x2) + 4 one-dimensional + 7 on "
          "2x4 and 4x2");
    distinct = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            distinct &= !remap_equal(&v[i], &v[j]);
    check(distinct, "laplace_bb at np=8: no mapping twice");
    free(own8);
    free(v);

    /* 3 processors: no 2-D grid without an extent of 1 */
    n = candidates(&c, 3, &v, &total);
    check(n == 1 + 4, "laplace_bb at np=3: own + the 4 one-dimensional mappings");
    free(v);
    n = candidates(&c, 1, &v, &total);
    check(n == 1 && v[0].own && total == 1, "np=1: the own mapping only");
    free(v);
    comp_close(&c);
    srcfile_free(f);
}

static void test_one_dimensional(void)
{
    SrcFile *f = read_example("examples/pi.f90");
    Comp c;
    if (!f || !compile(&c, f)) {
        check(0, "pi.f90 compiles");
        return;
    }
    Remap *v;
    long total;
    int n = candidates(&c, 4, &v, &total);
    char *a = n >= 1 ? label(&v[0]) : xstrdup("");
    char *b = n >= 2 ? label(&v[1]) : xstrdup("");
    check(n == 2 && total == 2 && !strcmp(a, "tmp(BLOCK) on p(4)")
          && !strcmp(b, "tmp(CYCLIC) on p(4)"), "pi at np=4: tmp (BLOCK), then (CYCLIC)");
    free(a);
    free(b);
    /* NUMBER_OF_PROCESSORS() stays: the alternative runs on any count */
    check(n == 2 && v[1].nprocs == 1 && v[1].procs[0].ext[0] == 0 && v[1].procs[0].declared,
          "pi: the CYCLIC alternative keeps p(NUMBER_OF_PROCESSORS())");
    char *d = remap_string(&v[0], REMAP_DIRECTIVES);
    check(!strcmp(d, "!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())\n"
                     "!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p\n"), "pi: the directives of its mapping");
    free(d);
    d = remap_string(&v[1], REMAP_SPEC);
    check(!strcmp(d, "tmp=CYCLIC"), "pi: the spec of (CYCLIC) has no grid: "
          "NUMBER_OF_PROCESSORS() is kept");
    free(d);
    free(v);
    n = candidates(&c, 16, &v, &total);
    check(n == 2, "pi at np=16: still 2 (one dimension, one grid)");
    free(v);
    comp_close(&c);
    srcfile_free(f);

    f = read_example("examples/lfk14.f90");
    if (!f || !compile(&c, f)) {
        check(0, "lfk14.f90 compiles");
        return;
    }
    n = candidates(&c, 4, &v, &total);
    a = n == 4 ? label(&v[0]) : xstrdup("");
    b = n == 4 ? label(&v[3]) : xstrdup("");
    check(n == 4 && total == 4 && !strcmp(a, "tp(BLOCK) on p(4); tg(BLOCK) on p(4)")
          && !strcmp(b, "tp(CYCLIC) on p(4); tg(CYCLIC) on p(4)"),
          "lfk14: two templates varied jointly, 2 x 2 mappings");
    check(n == 4 && v[3].nprocs == 1, "lfk14: both templates still share p");
    free(a);
    free(b);
    free(v);
    comp_close(&c);
    srcfile_free(f);
}

static void test_no_distribute(void)
{
    SrcFile *f = from_text("program t\n  real :: a(10)\n  a = 1.0\n  print *, sum(a)\nend\n");
    Comp c;
    compile(&c, f);
    Remap *v;
    long total;
    int n = c.ast ? candidates(&c, 4, &v, &total) : 0;
    char *s = n ? label(&v[0]) : xstrdup("");
    check(n == 1 && v[0].own && v[0].ndist == 0 && !strcmp(s, "as written"),
          "no DISTRIBUTE: the own mapping only, labelled 'as written'");
    free(s);
    if (n)
        free(v);
    comp_close(&c);
    srcfile_free(f);
}

/* Every candidate of every example at np=4 compiles and lowers cleanly;
 * the own mapping applied by the rewrite gives the IR of the program as
 * written. */
static void test_examples(void)
{
    glob_t g;
    char pat[3][1024];
    snprintf(pat[0], sizeof pat[0], "%s/examples/*.f90", srcdir);
    snprintf(pat[1], sizeof pat[1], "%s/examples/directives/*.f90", srcdir);
    snprintf(pat[2], sizeof pat[2], "%s/examples/directives/*.f", srcdir);
    int flags = 0;
    for (int i = 0; i < 3; i++) {
        glob(pat[i], flags, NULL, &g);
        flags = GLOB_APPEND;
    }
    check(g.gl_pathc >= 20, "the examples are found");
    int total_candidates = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i];
        const char *name = strstr(path, "examples/");
        char *err = NULL;
        SrcFile *f = srcfile_read(path, &err);
        free(err);
        Comp c;
        if (!f || !compile(&c, f)) {
            check(0, name);
            continue;
        }
        Remap *v;
        long total;
        int n = candidates(&c, 4, &v, &total);
        int ok = 1;
        char *msgs, *plain = spmd_text(f, NULL, &msgs);
        free(msgs);
        int back = 1;
        for (int k = 0; k < n; k++) {
            /* the spec of a mapping reads back as the same mapping */
            Remap r;
            char err[256], *spec = remap_string(&v[k], REMAP_SPEC);
            char *l1 = label(&v[k]), *l2 = NULL;
            if (remap_parse(c.ast, spec, 4, &r, err, sizeof err) || !remap_equal(&r, &v[k])
                || strcmp(l1, l2 = label(&r))) {
                printf("# %s: spec '%s' of '%s' reads back as '%s'\n", name, spec, l1,
                       l2 ? l2 : err);
                back = 0;
            }
            free(spec);
            free(l1);
            free(l2);
            char *text = spmd_text(f, &v[k], &msgs);
            if (!text) {
                char *s = label(&v[k]);
                printf("# %s under %s:\n%s", name, s, msgs);
                free(s);
                ok = 0;
            }
            free(text);
            free(msgs);
        }
        /* the space's other block sizes, one group changed at a time */
        RemapSpace *sp = remap_space_new(c.ast, 4);
        int nk = 0;
        for (int gi = 0; gi < remap_space_groups(sp); gi++)
            for (int ci = 1; ci < remap_space_choices(sp, gi); ci++) {
                if (gi < remap_space_dist_groups(sp) && remap_space_plain(sp, gi, ci))
                    continue;     /* (the candidates', above) */
                int t[REMAP_MAX_GROUPS] = {0};
                t[gi] = ci;
                Remap r, back_r;
                remap_space_make(sp, t, &r);
                char err[256], *spec = remap_string(&r, REMAP_SPEC);
                if (remap_parse(c.ast, spec, 4, &back_r, err, sizeof err) || !remap_equal(&r, &back_r)) {
                    printf("# %s: spec '%s' does not read back: %s\n", name, spec, err);
                    back = 0;
                }
                char *text = spmd_text(f, &r, &msgs);
                if (!text) {
                    printf("# %s under %s:\n%s", name, spec, msgs);
                    ok = 0;
                }
                free(text);
                free(msgs);
                free(spec);
                nk++;
            }
        remap_space_free(sp);
        n += nk;
        /* the rewrite with the own mapping: the same IR */
        Remap own = v[0];
        own.own = 0;
        char *again = spmd_text(f, &own, &msgs);
        free(msgs);
        int same = plain && again && !strcmp(plain, again);
        if (!same)
            printf("# %s: the own mapping applied by the rewrite changes the IR\n", name);
        free(plain);
        free(again);
        char what[1200];
        snprintf(what, sizeof what, "%s: %d mapping%s at np=4 compile and lower, their specs "
                 "read back; the own one rewritten is the program", name, n, n == 1 ? "" : "s");
        n -= nk;
        check(ok && same && back, what);
        total_candidates += n + nk;
        free(v);
        comp_close(&c);
        srcfile_free(f);
    }
    printf("# %d mappings compiled\n", total_candidates);
    globfree(&g);
}

/* ---- the search space: block sizes ---- */

/* Choice ci of group 0 is labelled want (its part before "; ", the other
 * groups' choices). */
static int choice_is(const RemapSpace *sp, int ci, const char *want)
{
    int t[REMAP_MAX_GROUPS] = {ci};
    Remap r;
    remap_space_make(sp, t, &r);
    char *l = label(&r);
    size_t len = strlen(want);
    int same = !strncmp(l, want, len) && (l[len] == ';' || !l[len]);
    free(l);
    return same;
}

/* How many choices of group 0 are labelled want; *share, the last one's. */
static int space_has(const RemapSpace *sp, const char *want, double *share)
{
    int found = 0;
    for (int ci = 0; ci < remap_space_choices(sp, 0); ci++)
        if (choice_is(sp, ci, want)) {
            found++;
            if (share)
                *share = remap_space_share(sp, 0, ci);
        }
    return found;
}

static int index_of(const RemapSpace *sp, const char *want)
{
    for (int ci = 0; ci < remap_space_choices(sp, 0); ci++)
        if (choice_is(sp, ci, want))
            return ci;
    return -1;
}

/* The search space at np = 4 of a program given as text (*f, *c kept for
 * the caller to close), or NULL when it does not compile (a failed check
 * named what). */
static RemapSpace *space_from(const char *prog, const char *what, SrcFile **f, Comp *c)
{
    *f = from_text(prog);
    if (!compile(c, *f)) {
        check(0, what);
        return NULL;
    }
    return remap_space_new(c->ast, 4);
}

static void test_space(void)
{
    static const char *const prog =
        "program s\n"
        "  integer, parameter :: n = 32, m = 30\n"
        "  real :: a(n, n), b(m)\n"
        "!HPF$ PROCESSORS prc(2, 2)\n"
        "!HPF$ TEMPLATE temp(n, n)\n"
        "!HPF$ DISTRIBUTE temp(BLOCK, BLOCK) ONTO prc\n"
        "!HPF$ ALIGN a(i, j) WITH temp(i, j)\n"
        "!HPF$ DISTRIBUTE b(BLOCK)\n"
        "  a = 1.0\n"
        "  b = 2.0\n"
        "  print *, sum(a) + sum(b)\n"
        "end program s\n";
    SrcFile *f;
    Comp c;
    RemapSpace *sp = space_from(prog, "the space's program compiles", &f, &c);
    if (!sp)
        return;
    /* temp, n = 32: the 8 plain choices; on 2x2 (blocks of 16) CYCLIC(2),
       (4), (8) per CYCLIC dimension: 3 + 3 + 15; on 4 (blocks of 8)
       CYCLIC(2), (4) and BLOCK(16): 2 + 2 + 1 + 1 */
    check(remap_space_groups(sp) == 3 && remap_space_dist_groups(sp) == 2
          && remap_space_choices(sp, 0) == 35 && remap_space_choices(sp, 2) == 2,
          "temp(32,32) at np=4: 8 plain choices and 27 with block sizes; a's ALIGN a group");
    {
        int t[REMAP_MAX_GROUPS] = {0, 0, 1};
        Remap r, back;
        remap_space_make(sp, t, &r);
        char *l = label(&r), *sp_ = remap_string(&r, REMAP_SPEC), err[256];
        check(strstr(l, "; a(i,j) WITH temp(j,i)") && !strcmp(sp_, "a=TRANSPOSED") && !r.own
              && !remap_parse(c.ast, sp_, 4, &back, err, sizeof err) && remap_equal(&r, &back),
              "a's ALIGN transposed: labelled, its spec a=TRANSPOSED reads back");
        free(l);
        free(sp_);
        check(remap_parse(c.ast, "temp=TRANSPOSED", 4, &back, err, sizeof err) == -1
              && strstr(err, "no ALIGN that can be varied"), "temp=TRANSPOSED: refused");
    }
    /* b, m = 30 over 4 (blocks of 8): CYCLIC(2), (4), (3), (5), (6);
       BLOCK(16), (10), (15) (BLOCK(k) needs k > 8, at most 2 kept: 16, 10) */
    check(remap_space_choices(sp, 1) == 2 + 4 + 2,
          "b(30) at np=4: BLOCK, CYCLIC, CYCLIC(2, 4, 3, 5), BLOCK(16, 10)");
    double sh = 0;
    check(space_has(sp, "temp(CYCLIC(8),CYCLIC(8)) on prc(2,2)", NULL) == 1
          && space_has(sp, "temp(BLOCK(16),*) on prc(4)", &sh) == 1 && sh == 0.5,
          "CYCLIC(8) on 2x2, BLOCK(16) on 4 (a processor holds half the template)");
    check(!space_has(sp, "temp(CYCLIC(8),*) on prc(4)", NULL)
          && !space_has(sp, "temp(BLOCK(16),BLOCK) on prc(2,2)", NULL),
          "no CYCLIC(k) that is BLOCK (k = 32/4), no BLOCK(k) that is BLOCK (k = 32/2)");
    check(space_has(sp, "temp(BLOCK,BLOCK) on prc(2,2)", &sh) == 1 && sh == 0.25,
          "(BLOCK,BLOCK) on 2x2: a quarter each");
    int labels_distinct = 1;
    for (int i = 0; i < remap_space_choices(sp, 0) && labels_distinct; i++) {
        int t[REMAP_MAX_GROUPS] = {i};
        Remap r;
        remap_space_make(sp, t, &r);
        char *l = label(&r);
        labels_distinct = space_has(sp, l, NULL) == 1 && r.own == (i == 0);
        free(l);
    }
    check(labels_distinct, "every choice once, the own one first");
    int t[REMAP_MAX_GROUPS] = {0};
    double cyc4 = -1;
    for (int ci = 0; ci < remap_space_choices(sp, 1); ci++) {
        t[1] = ci;
        Remap r;
        remap_space_make(sp, t, &r);
        char *l = label(&r);
        if (strstr(l, "b(CYCLIC(4))"))
            cyc4 = remap_space_share(sp, 1, ci);
        free(l);
    }
    /* 30 in blocks of 4: 8 blocks dealt to 4, 2 each, the last one of 2
       elements: the busiest holds 8 of 30 */
    check(fabs(cyc4 - 8.0 / 30.0) < 1e-15, "b(CYCLIC(4)) at np=4: the busiest holds 8 of 30");
    int cc = index_of(sp, "temp(CYCLIC,CYCLIC) on prc(2,2)"),
        c8 = index_of(sp, "temp(CYCLIC(8),CYCLIC(8)) on prc(2,2)"),
        c4 = index_of(sp, "temp(CYCLIC(4),*) on prc(4)");
    check(cc > 0 && c8 > 0 && c4 > 0
          && remap_space_relation(sp, 0, cc, c8) == (REMAP_SAME_FORMATS | REMAP_SAME_GRID)
          && remap_space_relation(sp, 0, 0, c8) == REMAP_SAME_GRID
          && remap_space_relation(sp, 0, c4, c8) == 0
          && remap_space_plain(sp, 0, cc) && !remap_space_plain(sp, 0, c8)
          && remap_space_default_grid(sp, 0, c8),
          "relations: CYCLIC(8) is CYCLIC with another block size, on (BLOCK,BLOCK)'s grid");
    remap_space_free(sp);
    /* b(30) at np=32: one element a processor at most, so CYCLIC is
       BLOCK (one choice); no CYCLIC(k) (k < 1); BLOCK(2) and BLOCK(4) */
    sp = remap_space_new(c.ast, 32);
    int b_cyclic = 0;
    for (int ci = 0; ci < remap_space_choices(sp, 1); ci++) {
        t[1] = ci;
        Remap r;
        remap_space_make(sp, t, &r);
        char *l = label(&r);
        b_cyclic |= strstr(l, "b(CYCLIC") != NULL;
        free(l);
    }
    check(remap_space_choices(sp, 1) == 3 && !b_cyclic,
          "b(30) at np=32: CYCLIC is BLOCK there, listed once; BLOCK(2), BLOCK(4)");
    remap_space_free(sp);
    sp = remap_space_new(c.ast, 1);
    check(remap_space_dist_groups(sp) == 2 && remap_space_choices(sp, 0) == 1
          && remap_space_choices(sp, 1) == 1, "np=1: each DISTRIBUTE its own choice only");
    remap_space_free(sp);
    comp_close(&c);
    srcfile_free(f);
}

/* The alignments of one ALIGN group, as labels: "as written" for the
 * program's own, else the label's ALIGN part. */
static int align_labels(const RemapSpace *sp, int g, char out[][64], int max)
{
    int n = remap_space_choices(sp, g);
    for (int ci = 0; ci < n && ci < max; ci++) {
        int t[REMAP_MAX_GROUPS] = {0};
        t[g] = ci;
        Remap r;
        remap_space_make(sp, t, &r);
        char *l = label(&r), *semi = NULL;
        for (char *q = strstr(l, "; "); q; q = strstr(q + 1, "; "))
            semi = q;             /* the ALIGN's part comes last */
        snprintf(out[ci], 64, "%s", ci ? (semi ? semi + 2 : "?") : "as written");
        free(l);
    }
    return n;
}

/* The alignments the search varies, by hand: an alignee's collapsed
 * dimension moved, an offset dropped, a replicated dimension held at one
 * position and back, a transpose; the forms it leaves alone; every
 * variant's spec read back and its program compiled. */
static void test_align_variants(void)
{
    static const char *const prog =
        "program v\n"
        "  integer, parameter :: n = 16\n"
        "  real :: a(n, n), b(n), c(n), x(n), y(n), e(n), g(n, 12)\n"
        "!HPF$ TEMPLATE t(n)\n"
        "!HPF$ DISTRIBUTE t(BLOCK)\n"
        "!HPF$ ALIGN a(i, *) WITH t(i)\n"
        "!HPF$ TEMPLATE t1(n + 1)\n"
        "!HPF$ DISTRIBUTE t1(BLOCK)\n"
        "!HPF$ ALIGN b(i) WITH t1(i + 1)\n"
        "!HPF$ ALIGN e(i) WITH t1(2*i - 1)\n"
        "!HPF$ TEMPLATE t2(n, n)\n"
        "!HPF$ DISTRIBUTE t2(BLOCK, BLOCK)\n"
        "!HPF$ ALIGN x(j) WITH t2(*, j)\n"
        "!HPF$ ALIGN y(i) WITH t2(i, 3)\n"
        "!HPF$ ALIGN g(i, j) WITH t2(i, j)\n"
        "!HPF$ ALIGN c(i) WITH t(i)\n"
        "  a = 1.0\n  b = 2.0\n  x = 3.0\n  y = 4.0\n  c = 5.0\n  g = 6.0\n"
        "  print *, sum(a) + sum(b) + sum(x) + sum(y) + sum(c) + sum(g)\n"
        "end program v\n";
    SrcFile *f;
    Comp c;
    RemapSpace *sp = space_from(prog, "the ALIGN variants' program compiles", &f, &c);
    if (!sp)
        return;
    int Gd = remap_space_dist_groups(sp);
    char l[5][6][64];
    int n[5] = {0};
    check(Gd == 3 && remap_space_groups(sp) == Gd + 5,
          "3 DISTRIBUTEs; 5 ALIGNs varied (not e's 2*i-1, not c's, which has no other)");
    for (int k = 0; k < 5 && remap_space_groups(sp) == Gd + 5; k++)
        n[k] = align_labels(sp, Gd + k, l[k], 6);
    check(n[0] == 2 && !strcmp(l[0][1], "a(*,i) WITH t(i)"),
          "a(i,*) WITH t(i): its dummy moved to the collapsed dimension");
    check(n[1] == 2 && !strcmp(l[1][1], "b(i) WITH t1(i)"), "b(i) WITH t1(i+1): the offset dropped");
    check(n[2] == 2 && !strcmp(l[2][1], "x(j) WITH t2(1,j)"),
          "x(j) WITH t2(*,j): held at the first row");
    check(n[3] == 2 && !strcmp(l[3][1], "y(i) WITH t2(i,*)"), "y(i) WITH t2(i,3): replicated");
    check(n[4] == 2 && !strcmp(l[4][1], "g(i,j) WITH t2(j,i)"),
          "g(16,12) WITH t2(i,j) (16 x 16): transposed, as it fits");
    int back = 1, compiled = 1;
    for (int g = Gd; g < remap_space_groups(sp); g++)
        for (int ci = 1; ci < remap_space_choices(sp, g); ci++) {
            int t[REMAP_MAX_GROUPS] = {0};
            t[g] = ci;
            Remap r, rb;
            remap_space_make(sp, t, &r);
            char err[256], *spec = remap_string(&r, REMAP_SPEC), *msgs;
            back &= !remap_parse(c.ast, spec, 4, &rb, err, sizeof err) && remap_equal(&r, &rb);
            char *text = spmd_text(f, &r, &msgs);
            compiled &= text != NULL;
            free(text);
            free(msgs);
            free(spec);
        }
    check(back && compiled, "every ALIGN variant's spec reads back; every variant compiles");
    Remap r;
    char err[512];
    check(!remap_parse(c.ast, "a = ( * , I ) with T(i)", 4, &r, err, sizeof err)
          && r.nalign == 5 && r.align[0].kind == REMAP_AL_COLLAPSED,
          "'a = ( * , I ) with T(i)': blanks and case do not matter");
    check(remap_parse(c.ast, "b=(i) WITH t1(i+2)", 4, &r, err, sizeof err) == -1
          && strstr(err, "its alignments: (i) WITH t1(i+1); (i) WITH t1(i)"),
          "an alignment the ALIGN cannot take: refused, the ones it can listed");
    check(remap_parse(c.ast, "e=(i) WITH t1(i)", 4, &r, err, sizeof err) == -1
          && strstr(err, "has no ALIGN that can be varied"), "e (2*i-1): not varied");
    remap_space_free(sp);
    comp_close(&c);
    srcfile_free(f);
}

/* laplace_bb remapped to (BLOCK,*) is laplace_bs: the SPMD IR differs only
 * in the program's name and its template's rank. */
static void test_laplace_oracle(void)
{
    SrcFile *bb = read_example("examples/laplace_bb.f90");
    SrcFile *bs = read_example("examples/laplace_bs.f90");
    Comp c;
    if (!bb || !bs || !compile(&c, bb)) {
        check(0, "laplace_bb.f90 and laplace_bs.f90 compile");
        return;
    }
    Remap r;
    char err[256];
    int rc = remap_parse(c.ast, "temp=BLOCK,*", 4, &r, err, sizeof err);
    char *msgs, *a = rc ? NULL : spmd_text(bb, &r, &msgs);
    if (!rc)
        free(msgs);
    char *b = spmd_text(bs, NULL, &msgs);
    free(msgs);
    /* drop the lines that differ by construction */
    int same = a && b;
    char *la = a, *lb = b;
    while (same && *la && *lb) {
        char *ea = strchr(la, '\n'), *eb = strchr(lb, '\n');
        if (!ea || !eb)
            break;
        *ea = *eb = '\0';
        int skip = (strstr(la, "unit laplace_") && strstr(lb, "unit laplace_"))
                   || (strstr(la, "template temp") && strstr(lb, "template temp"))
                   || (strstr(la, "checksum") && strstr(lb, "checksum"));
        if (!skip && strcmp(la, lb)) {
            printf("# '%s'\n# '%s'\n", la, lb);
            same = 0;
        }
        la = ea + 1;
        lb = eb + 1;
    }
    same = same && !*la && !*lb;
    check(same, "laplace_bb under 'temp=BLOCK,*' lowers as laplace_bs.f90");
    free(a);
    free(b);
    comp_close(&c);
    srcfile_free(bb);
    srcfile_free(bs);
}

/* ---- printing, arrangements, units ---- */

static void test_print(void)
{
    SrcFile *f = read_example("examples/laplace_bb.f90");
    Comp c;
    if (!f || !compile(&c, f)) {
        check(0, "laplace_bb.f90 compiles");
        return;
    }
    Remap *v;
    long total;
    int n = candidates(&c, 4, &v, &total);
    char *d = n > 1 ? remap_string(&v[1], REMAP_DIRECTIVES) : xstrdup("");
    check(!strcmp(d, "!HPF$ PROCESSORS prc(4)\n!HPF$ DISTRIBUTE temp(BLOCK, *) ONTO prc\n"),
          "remap_print directives: PROCESSORS prc(4), DISTRIBUTE temp(BLOCK, *) ONTO prc");
    free(d);
    char *buf = NULL;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    remap_print(m, &v[0], REMAP_LABEL);
    fclose(m);
    check(!strcmp(buf, "temp(BLOCK,BLOCK) on prc(2,2)"), "remap_print label");
    free(buf);
    char *s0 = remap_string(&v[0], REMAP_SPEC), *s1 = remap_string(&v[1], REMAP_SPEC);
    check(!strcmp(s0, "") && !strcmp(s1, "temp=BLOCK,*@4") && !v[0].dist[0].changed
          && v[1].dist[0].changed, "remap_print spec: what differs from the program, with "
          "its grid");
    free(s0);
    free(s1);
    free(v);
    comp_close(&c);
    srcfile_free(f);

    f = read_example("examples/directives/attributed.f90");
    if (!f || !compile(&c, f)) {
        check(0, "attributed.f90 compiles");
        return;
    }
    Remap r;
    char err[256];
    int rc = remap_parse(c.ast, "b=CYCLIC,*", 4, &r, err, sizeof err);
    d = rc ? xstrdup(err) : remap_string(&r, REMAP_DIRECTIVES);
    check(!strcmp(d, "!HPF$ PROCESSORS p(2, 2)\n"
                     "!HPF$ PROCESSORS p_2(4)\n"
                     "!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO p\n"
                     "!HPF$ DISTRIBUTE (CYCLIC, *) ONTO p_2 :: a, b\n"),
          "attributed DISTRIBUTE: one choice for a and b, on a new p_2(4) as t keeps p(2,2)");
    if (strncmp(d, "!HPF$", 5))
        printf("# %s\n", d);
    free(d);
    char *msgs, *text = rc ? NULL : spmd_text(f, &r, &msgs);
    if (!rc)
        free(msgs);
    check(text != NULL, "attributed DISTRIBUTE remapped: compiles and lowers");
    free(text);
    comp_close(&c);
    srcfile_free(f);
}

/* A program with a variable p, a DISTRIBUTE without ONTO, and a subroutine
 * with a template of its own. */
static const char units_src[] =
    "program main\n"
    "  integer, parameter :: n = 16\n"
    "  real :: a(n, n), p\n"
    "!HPF$ TEMPLATE t(n, n)\n"
    "!HPF$ DISTRIBUTE t(BLOCK, *)\n"
    "!HPF$ ALIGN a(i, j) WITH t(i, j)\n"
    "  p = 2.0\n"
    "  a = p\n"
    "  call s()\n"
    "  print *, sum(a)\n"
    "end program main\n"
    "subroutine s()\n"
    "  real :: b(8)\n"
    "!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())\n"
    "!HPF$ TEMPLATE t(8)\n"
    "!HPF$ DISTRIBUTE t(CYCLIC) ONTO q\n"
    "!HPF$ ALIGN b(i) WITH t(i)\n"
    "  b = 1.0\n"
    "  print *, sum(b)\n"
    "end subroutine s\n";

static void test_units(void)
{
    SrcFile *f = from_text(units_src);
    Comp c;
    if (!compile(&c, f)) {
        printf("%s", comp_msgs(&c));
        check(0, "the two-unit program compiles");
        return;
    }
    Remap *v;
    long total;
    int n = candidates(&c, 4, &v, &total);
    /* main's t: own (BLOCK,*), then (*,BLOCK) (CYCLIC,*) (*,CYCLIC) on the
     * default arrangement and 4 formats on 2x2; s's t: own CYCLIC, BLOCK */
    check(n == 8 * 2 && total == 16, "two units: 8 x 2 mappings");
    char *s = label(&v[0]);
    check(!strcmp(s, "main:t(BLOCK,*); s:t(CYCLIC) on q(4)"), "labels name the unit when "
          "several have a DISTRIBUTE");
    free(s);
    int found = 0;
    for (int i = 0; i < n; i++) {
        s = label(&v[i]);
        if (!strcmp(s, "main:t(BLOCK,BLOCK) on p_2(2,2); s:t(CYCLIC) on q(4)")) {
            found = 1;
            char *d = remap_string(&v[i], REMAP_DIRECTIVES);
            check(!strcmp(d, "! in main\n"
                             "!HPF$ PROCESSORS p_2(2, 2)\n"
                             "!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO p_2\n"
                             "! in s\n"
                             "!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())\n"
                             "!HPF$ DISTRIBUTE t(CYCLIC) ONTO q\n"),
                  "directives, unit by unit, with a new arrangement p_2 (p is a variable)");
            free(d);
        }
        free(s);
    }
    check(found, "no ONTO and 2 distributed dimensions: a new arrangement, not named p");
    int ok = 1;
    for (int i = 0; i < n; i++) {
        char *msgs, *text = spmd_text(f, &v[i], &msgs);
        if (!text) {
            s = label(&v[i]);
            printf("# %s:\n%s", s, msgs);
            free(s);
            ok = 0;
        }
        free(text);
        free(msgs);
    }
    check(ok, "two units: every mapping compiles and lowers");
    free(v);

    Remap r;
    char err[256];
    int rc = remap_parse(c.ast, "t=BLOCK,BLOCK", 4, &r, err, sizeof err);
    check(rc && strstr(err, "'t' is distributed in more than one unit"), "a name in two "
          "units needs UNIT:");
    rc = remap_parse(c.ast, "s:t=BLOCK; main:t=*,CYCLIC", 4, &r, err, sizeof err);
    s = rc ? xstrdup(err) : label(&r);
    check(!strcmp(s, "main:t(*,CYCLIC); s:t(BLOCK) on q(4)"), "UNIT:NAME picks the unit");
    free(s);
    comp_close(&c);
    srcfile_free(f);
}

/* Two templates on one arrangement, reshaped apart: the second gets q_2. */
static void test_shared_arrangement(void)
{
    SrcFile *f = from_text("program two\n"
                           "  real :: a(8, 8), b(8, 8)\n"
                           "!HPF$ PROCESSORS q(2, 2)\n"
                           "!HPF$ TEMPLATE t1(8, 8), t2(8, 8)\n"
                           "!HPF$ DISTRIBUTE t1(BLOCK, BLOCK) ONTO q\n"
                           "!HPF$ DISTRIBUTE t2(BLOCK, BLOCK) ONTO q\n"
                           "!HPF$ ALIGN a(i, j) WITH t1(i, j)\n"
                           "!HPF$ ALIGN b(i, j) WITH t2(i, j)\n"
                           "  a = 1.0\n"
                           "  b = a\n"
                           "  print *, sum(b)\n"
                           "end program two\n");
    Comp c;
    if (!compile(&c, f)) {
        check(0, "the program with two templates compiles");
        return;
    }
    Remap r;
    char err[256];
    int rc = remap_parse(c.ast, "t1=BLOCK,*", 4, &r, err, sizeof err);
    char *d = rc ? xstrdup(err) : remap_string(&r, REMAP_DIRECTIVES);
    check(!strcmp(d, "!HPF$ PROCESSORS q(4)\n!HPF$ PROCESSORS q_2(2, 2)\n"
                     "!HPF$ DISTRIBUTE t1(BLOCK, *) ONTO q\n"
                     "!HPF$ DISTRIBUTE t2(BLOCK, BLOCK) ONTO q_2\n"),
          "q reshaped for t1, t2 keeps its grid on q_2");
    free(d);
    char *msgs, *text = rc ? NULL : spmd_text(f, &r, &msgs);
    if (!rc)
        free(msgs);
    check(text != NULL, "the new arrangement compiles and lowers");
    free(text);
    comp_close(&c);
    srcfile_free(f);
}

/* Four 2-D templates at np=16: far more than the cap. */
static void test_cap(void)
{
    SrcFile *f = from_text("program many\n"
                           "  real :: a(16, 16)\n"
                           "!HPF$ PROCESSORS p(4, 4)\n"
                           "!HPF$ TEMPLATE t1(16, 16), t2(16, 16), t3(16, 16), t4(16, 16)\n"
                           "!HPF$ DISTRIBUTE t1(BLOCK, BLOCK) ONTO p\n"
                           "!HPF$ DISTRIBUTE t2(BLOCK, BLOCK) ONTO p\n"
                           "!HPF$ DISTRIBUTE t3(BLOCK, BLOCK) ONTO p\n"
                           "!HPF$ DISTRIBUTE t4(BLOCK, BLOCK) ONTO p\n"
                           "!HPF$ ALIGN a(i, j) WITH t1(i, j)\n"
                           "  a = 1.0\n"
                           "  print *, sum(a)\n"
                           "end program many\n");
    Comp c;
    if (!compile(&c, f)) {
        check(0, "the program with four templates compiles");
        return;
    }
    Remap *v;
    long total;
    int n = candidates(&c, 16, &v, &total);
    /* per template: 4 formats on 16, 4 on 2x8 4x4 8x2, less the own one */
    check(n == REMAP_MAX_CANDIDATES && total == 16L * 16 * 16 * 16,
          "capped at 256 of 16^4 mappings, the total reported");
    /* one template changed at a time first */
    int single = 1;
    for (int i = 1; i <= 4 * 15 && i < n; i++) {
        int changed = 0;
        for (int k = 0; k < 4; k++)
            changed += !(v[i].dist[k].fmt[0].fmt == DIST_BLOCK
                         && v[i].dist[k].fmt[1].fmt == DIST_BLOCK && v[i].dist[k].procs >= 0
                         && v[i].procs[v[i].dist[k].procs].ext[0] == 4
                         && v[i].procs[v[i].dist[k].procs].ext[1] == 4);
        single &= changed == 1;
    }
    check(single, "the first 60 alternatives change one template each");
    char *msgs, *text = spmd_text(f, &v[n - 1], &msgs);
    check(text != NULL, "the last kept mapping compiles and lowers");
    free(text);
    free(msgs);
    free(v);
    comp_close(&c);
    srcfile_free(f);
}

/* ---- the user's spec ---- */

static void parse_ok(const Node *ast, const char *spec, int np, const char *want)
{
    Remap r;
    char err[256], what[512];
    int rc = remap_parse(ast, spec, np, &r, err, sizeof err);
    char *s = rc ? xstrdup(err) : label(&r);
    snprintf(what, sizeof what, "'%s' at np=%d is %s", spec, np, want);
    if (strcmp(s, want))
        printf("# got '%s'\n", s);
    check(!rc && !strcmp(s, want), what);
    free(s);
}

static void parse_err(const Node *ast, const char *spec, int np, const char *want)
{
    Remap r;
    char err[256], what[512];
    int rc = remap_parse(ast, spec, np, &r, err, sizeof err);
    snprintf(what, sizeof what, "'%s': error \"%s\"", spec, want);
    if (!rc || !strstr(err, want))
        printf("# got \"%s\"\n", rc ? err : "no error");
    check(rc && strstr(err, want), what);
}

static void test_parse(void)
{
    SrcFile *f = read_example("examples/laplace_bb.f90");
    Comp c;
    if (!f || !compile(&c, f)) {
        check(0, "laplace_bb.f90 compiles");
        return;
    }
    const Node *ast = c.ast;
    parse_ok(ast, "temp=BLOCK,*", 4, "temp(BLOCK,*) on prc(4)");
    parse_ok(ast, "TEMP = ( Cyclic , block )", 4, "temp(CYCLIC,BLOCK) on prc(2,2)");
    parse_ok(ast, "temp(block,cyclic(4))@4x1", 4, "temp(BLOCK,CYCLIC(4)) on prc(4,1)");
    parse_ok(ast, "temp=BLOCK,BLOCK", 8, "temp(BLOCK,BLOCK) on prc(4,2)");
    parse_ok(ast, "temp=BLOCK,BLOCK", 0, "temp(BLOCK,BLOCK) on prc(2,2)");
    parse_ok(ast, "temp=*,BLOCK(64)", 0, "temp(*,BLOCK(64)) on prc(4)");
    parse_ok(ast, "temp=cyclic(1),*;", 4, "temp(CYCLIC,*) on prc(4)");
    Remap *v, r;
    long total;
    char err[256];
    int n = candidates(&c, 4, &v, &total);
    check(n > 1 && !remap_parse(ast, "temp=BLOCK,*", 4, &r, err, sizeof err)
          && remap_equal(&r, &v[1]) && !r.own, "a parsed spec equals the candidate");
    Remap v0 = v[0];
    free(v);

    parse_err(ast, "foo=BLOCK", 4, "no DISTRIBUTE in the program maps 'foo' (distributed: temp)");
    parse_err(ast, "a=BLOCK,*", 4, "'a' is aligned with 'temp': remap 'temp' instead");
    parse_err(ast, "temp=BLOCK", 4, "'temp' has rank 2: give 2 formats, not 1");
    parse_err(ast, "temp=BLOCK,*,*", 4, "'temp' has rank 2: give 2 formats, not 3");
    parse_err(ast, "temp=BLOK,*", 4, "unknown format 'BLOK' for 'temp'");
    parse_err(ast, "temp=CYCLIC(0),*", 4, "the argument of CYCLIC(k) for 'temp' must be a "
              "positive integer, not '0'");
    parse_err(ast, "temp=BLOCK,*@2x2", 4, "the grid of 'temp' has 2 extents, but it has 1 "
              "distributed dimension");
    parse_err(ast, "temp=BLOCK,BLOCK@2x4", 4, "the grid of 'temp' has 8 processors, not 4");
    parse_err(ast, "temp=BLOCK,BLOCK@2x", 4, "bad grid");
    parse_err(ast, "temp=BLOCK,*; temp=*,BLOCK", 4, "'temp' is given twice");
    check(!remap_parse(ast, " ; ", 4, &r, err, sizeof err) && r.own && remap_equal(&r, &v0),
          "an empty spec is the program's own mapping");
    parse_err(ast, "temp=BLOCK,* junk", 4, "unexpected 'junk'");
    parse_err(ast, "temp BLOCK", 4, "'=' expected after 'temp'");
    parse_err(ast, "=BLOCK", 4, "a template or array name expected");
    parse_err(ast, "temp=(BLOCK,*", 4, "')' expected after the formats of 'temp'");
    comp_close(&c);
    srcfile_free(f);

    f = from_text("program g\n"
                  "  real :: a(8, 8), w(8)\n"
                  "!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())\n"
                  "!HPF$ TEMPLATE t(8, 8), u(8)\n"
                  "!HPF$ DISTRIBUTE t(BLOCK, *) ONTO p\n"
                  "!HPF$ ALIGN a(i, j) WITH t(i, j)\n"
                  "  a = 1.0\n"
                  "  w = 2.0\n"
                  "  print *, sum(a), sum(w)\n"
                  "end program g\n");
    if (!compile(&c, f)) {
        check(0, "the NUMBER_OF_PROCESSORS() program compiles");
        return;
    }
    parse_err(c.ast, "t=BLOCK,BLOCK", 0, "'t' has 2 distributed dimensions: give the grid, "
              "as in 't=...@2x2'");
    parse_ok(c.ast, "t=BLOCK,BLOCK@2x3", 0, "t(BLOCK,BLOCK) on p(2,3)");
    parse_ok(c.ast, "t=BLOCK,BLOCK", 12, "t(BLOCK,BLOCK) on p(4,3)");
    parse_ok(c.ast, "t=*,CYCLIC", 0, "t(*,CYCLIC) on p(NP)");
    parse_err(c.ast, "u=BLOCK", 4, "TEMPLATE 'u' is not distributed");
    parse_err(c.ast, "w=BLOCK", 4, "array 'w' is not distributed");
    comp_close(&c);
    srcfile_free(f);

    f = from_text("program t\n  real :: a(10)\n  a = 1.0\n  print *, sum(a)\nend\n");
    compile(&c, f);
    parse_err(c.ast, "a=BLOCK", 4, "the program has no DISTRIBUTE directive");
    comp_close(&c);
    srcfile_free(f);
}

/* A mapping applied to the wrong program: diagnostics, no tree. */
static void test_apply_errors(void)
{
    SrcFile *bb = read_example("examples/laplace_bb.f90");
    SrcFile *pi = read_example("examples/pi.f90");
    Comp c;
    if (!bb || !pi || !compile(&c, bb)) {
        check(0, "laplace_bb.f90 compiles");
        return;
    }
    Remap r;
    char err[256];
    remap_parse(c.ast, "temp=BLOCK,*", 4, &r, err, sizeof err);
    comp_close(&c);
    comp_open(&c, pi);
    Node *ast = frontend_compile_remapped(pi, FORM_FREE, c.arena, &c.diag, NULL, 0, &r);
    check(!ast && c.diag.nerrors == 1
          && strstr(comp_msgs(&c), "error: the mapping to apply is for another program: it "
                    "has no unit 'laplace_bb'"),
          "a mapping of another program is a diagnostic");
    comp_close(&c);

    /* the same unit name, but no such DISTRIBUTE */
    strcpy(r.dist[0].unit_name, "pi");
    comp_open(&c, pi);
    ast = frontend_compile_remapped(pi, FORM_FREE, c.arena, &c.diag, NULL, 0, &r);
    check(!ast && strstr(comp_msgs(&c), "pi.f90:") && strstr(comp_msgs(&c), "the mapping to "
          "apply distributes 'temp', which no DISTRIBUTE of this unit maps"),
          "a mapping naming a missing DISTRIBUTE is a diagnostic at the unit");
    comp_close(&c);

    /* a grid sema refuses: reported by sema at the directive */
    compile(&c, bb);
    remap_parse(c.ast, "temp=BLOCK(10),*@4", 4, &r, err, sizeof err);
    comp_close(&c);
    comp_open(&c, bb);
    ast = frontend_compile_remapped(bb, FORM_FREE, c.arena, &c.diag, NULL, 0, &r);
    check(!ast && strstr(comp_msgs(&c), "laplace_bb.f90:26:") &&
          strstr(comp_msgs(&c), "BLOCK(10) is too small: 4 processors hold 40 of the 128 "
                 "elements of dimension 1 of 'temp'"),
          "BLOCK(k) too small: sema's error, at the DISTRIBUTE line");
    comp_close(&c);
    srcfile_free(bb);
    srcfile_free(pi);
}

int main(void)
{
    srcdir = getenv("srcdir");
    if (!srcdir || !*srcdir)
        srcdir = ".";
    test_laplace();
    test_one_dimensional();
    test_no_distribute();
    test_print();
    test_units();
    test_shared_arrangement();
    test_cap();
    test_parse();
    test_apply_errors();
    test_laplace_oracle();
    test_space();
    test_align_variants();
    test_examples();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
