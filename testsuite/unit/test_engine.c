/* test_engine.c - the interpretation engine against hand-computed times.
 * Small programs are compiled from strings, abstracted and interpreted on a
 * small machine whose costs are round numbers (a 1 MHz clock: one cycle is
 * one microsecond), so that every expected time below is worked out by hand
 * in its comment: IterD's closed form, the FORALL nest with owned
 * iterations, a masked FORALL (CondtD weights), an overlap shift and a
 * broadcast on the hypercube (startup + bytes x per-byte + hops x per-hop,
 * waiting, receive overhead), a recursive-doubling reduction, the steady
 * state of an IterSync loop, a conditional; and the network formulas (Gray
 * code embedding, hops, one message's time) on the shipped iPSC/860. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aag.h"
#include "engine.h"
#include "fi.h"
#include "frontend.h"
#include "hpfmap.h"
#include "sag.h"

#include "tap.h"

static void check_us(double got, double want_us, const char *what)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s: %.3f us (expected %.3f)", what, got * 1e6, want_us);
    check(fabs(got * 1e6 - want_us) < 1e-6, buf);
}

/* Costs: integer operations free (index arithmetic does not blur the sums),
 * dadd 2, dmul 3, cmp 1; loop setup 10, per iteration 1; condition 4, taken
 * 2; no call overhead, no memory costs. Messages: startup 100, 1 per byte,
 * 10 per hop, receive 5; the same for dynamic buffers. */
static const char *small_sag =
    "unit m {\n"
    "  processing compound {\n"
    "    unit node [4] {\n"
    "      processing simple {\n"
    "        cpu.clock = 1 MHz\n"
    "        op.iadd = 0 cycles\n"
    "        op.imul = 0 cycles\n"
    "        op.idiv = 0 cycles\n"
    "        op.itof = 0 cycles\n"
    "        op.ftoi = 0 cycles\n"
    "        op.logical = 0 cycles\n"
    "        op.dadd = 2 cycles\n"
    "        op.dmul = 3 cycles\n"
    "        op.cmp = 1 cycles\n"
    "        loop.setup = 10 cycles\n"
    "        loop.iter = 1 cycles\n"
    "        loop.step = 0 cycles\n"
    "        cond.test = 4 cycles\n"
    "        cond.taken = 2 cycles\n"
    "        call.overhead = 0 cycles\n"
    "        call.per_arg = 0 cycles\n"
    "      }\n"
    "      memory simple {\n"
    "        dcache.size = 8 KiB\n"
    "        dcache.block = 32 B\n"
    "        dcache.assoc = 2\n"
    "        mem.fetch.hit = 0 cycles\n"
    "        mem.fetch.miss = 0 cycles\n"
    "        mem.store.hit = 0 cycles\n"
    "        mem.store.miss = 0 cycles\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  comm simple {\n"
    "    net.topology = hypercube\n"
    "    net.short_max = 100 B\n"
    "    net.static.startup = 100 us\n"
    "    net.static.startup.short = 100 us\n"
    "    net.static.per_byte = 1 us\n"
    "    net.static.per_hop = 10 us\n"
    "    net.static.receive = 5 us\n"
    "    net.dynamic.startup = 100 us\n"
    "    net.dynamic.startup.short = 100 us\n"
    "    net.dynamic.per_byte = 1 us\n"
    "    net.dynamic.per_hop = 10 us\n"
    "    net.dynamic.receive = 5 us\n"
    "    sync.overhead = 50 us\n"
    "    coll.broadcast = tree\n"
    "    coll.reduction = recursive_doubling\n"
    "  }\n"
    "}\n";

static SagGraph *sag;
/* the compiler-optimization switches of the next predictions */
static int opt_reorder, opt_inline, opt_written;

/* Predicts the program on np processors, recording into tr (NULL: no
 * trace); 0 when it does not compile. */
static int predict_traced(const char *text, int np, EngineResult *r, Trace *tr)
{
    Arena *a = arena_new("test_engine");
    SrcFile *f = srcfile_from_bytes("t.f90", text, strlen(text));
    Diag d;
    diag_init(&d, stdout);
    Node *file = frontend_compile(f, FORM_FREE, a, &d, NULL, 0);
    SpProgram *p = file ? spmd_lower(file, a, &d) : NULL;
    int ok = 0;
    if (p) {
        AagOptions ao = {1, NULL, 0, opt_reorder, opt_written};
        Aag *g = aag_build(p, &ao);
        FiOptions fo = {p, NULL, 0, NULL, 0, 0, NULL, 0};
        Fi *fi = fi_new(&fo, &d);
        fi_set_nprocs(fi, np);
        EngineOptions eo = {.np = np, .classes = ENGINE_CLASSES_AUTO, .trace = tr,
                            .inline_calls = opt_inline};
        ok = engine_run(g, fi, sag, &eo, r) == 0;
        fi_free(fi);
        aag_free(g);
    }
    srcfile_free(f);
    arena_free(a);
    return ok;
}

static int predict(const char *text, int np, EngineResult *r)
{
    return predict_traced(text, np, r, NULL);
}

#define HEAD "program t\n  integer :: i, k\n  real(8) :: x, s\n  real(8) :: a(16), b(16)\n" \
             "!hpf$ distribute a(block)\n!hpf$ align b(i) with a(i)\n"

/* -fforall-nest=written: a FORALL (i = 1:4, j = 1:10) nested as written
 * runs its 10 j-trips inside 4 entries, not its 4 i-trips inside 10: on
 * one processor (loop setup 10, an iteration 1) the nest costs (1 + 4) x 10
 * + 4 + 40 = 94 in overhead, against (1 + 10) x 10 + 10 + 40 = 160. */
static void test_forall_nest(void)
{
    const char *text = "program t\n  integer :: i, j\n  real(8) :: c(4, 10), x\n"
                       "  x = 1.5d0\n  forall (i = 1:4, j = 1:10) c(i, j) = x*x\n"
                       "  print *, c(1, 1)\nend program t\n";
    EngineResult hpfc, written;
    check(predict(text, 1, &hpfc), "a 4 x 10 FORALL predicts");
    opt_written = 1;
    check(predict(text, 1, &written), "nested as written, it predicts");
    opt_written = 0;
    check_us(hpfc.part[M_OVHD] - written.part[M_OVHD], 160 - 94,
             "-fforall-nest=written: 4 inner-loop entries, not 10 (66 fewer)");
    check(written.part[M_COMP] > 0, "the FORALL computes");
    check_us(hpfc.part[M_COMP], written.part[M_COMP] * 1e6,
             "-fforall-nest=written: the same computation (memory is free here)");
}

static void test_iterd(void)
{
    EngineResult r;
    /* setup 10 + 10 x (iteration 1 + dadd 2) = 40 on every processor */
    check(predict(HEAD "  x = 0.0d0\n  do i = 1, 10\n    x = x + 1.5d0\n  end do\nend program t\n",
                  4, &r), "IterD program predicts");
    check_us(r.total, 40, "IterD closed form");
    check_us(r.min_total, 40, "IterD: every processor the same");
    check_us(r.part[M_COMP], 20, "IterD: computation 10 x dadd");
    check_us(r.part[M_OVHD], 20, "IterD: overhead setup + 10 iterations");
    /* nested: 10 + 5 x (1 + 10 + 4 x (1 + 2)) = 125 */
    check(predict(HEAD "  x = 0.0d0\n  do i = 1, 5\n    do k = 1, 4\n      x = x + 1.5d0\n"
                  "    end do\n  end do\nend program t\n", 4, &r), "nested IterD predicts");
    check_us(r.total, 125, "nested IterD: setup per outer iteration");
}

static void test_forall(void)
{
    EngineResult r;
    /* a = 1: 4 owned points each, setup 10 + 4 x 1 = 14 */
    check(predict(HEAD "  a = 1.0d0\nend program t\n", 4, &r), "FORALL predicts");
    check_us(r.total, 14, "FORALL: owned iterations only");
    /* b = a*2 on 1 processor: 10 + 16 x (1 + 3) = 74 */
    check(predict(HEAD "  b = a*2.0d0\nend program t\n", 1, &r), "FORALL on 1 predicts");
    check_us(r.total, 74, "FORALL on one processor: all 16 points");
    /* masked: a = 1 (14), then the mask i > 8 tested at the 4 owned points
       (test 4 + cmp 1), the body (taken 2 + dmul 3) where it holds: none on
       processors 0 and 1, all 4 on 2 and 3: 10 + 4 + 20 + 4 x 5 = 54 */
    check(predict(HEAD "  a = 1.0d0\n  forall (i = 1:16, i > 8) b(i) = a(i)*2.0d0\nend program t\n",
                  4, &r), "masked FORALL predicts");
    check_us(r.total, 14 + 54, "masked FORALL: slowest processor");
    check_us(r.min_total, 14 + 34, "masked FORALL: fastest processor (mask never true)");
}

static void test_shift(void)
{
    EngineResult r;
    /* b(2:15) = a(1:14) + a(3:16) on 4: ghost cells of a, one 8-byte
     * element to each neighbour (Gray-coded 1-D grid: one hop).
     * Up round: 0, 1, 2 send (busy 100 + 8 = 108); a message arrives at
     * 0 + 108 + 10 = 118; 1 and 2 wait 118 - 108, 3 waits 118, receive 5:
     * clocks 108, 123, 123, 123. Down round: 1, 2, 3 send at 123 (to 231),
     * arriving at 241; 0 waits 241 - 108 and receives: 246; 1, 2 wait 10,
     * receive: 246; 3: 231. The loop: 10 + n x (1 + 2) with n = 3, 4, 4, 3:
     * 265, 268, 268, 250. */
    check(predict(HEAD "  b(2:15) = a(1:14) + a(3:16)\nend program t\n", 4, &r), "shift predicts");
    check_us(r.total, 268, "overlap shift then the loop: slowest");
    check_us(r.min_total, 250, "overlap shift then the loop: fastest");
    check_us(r.part[M_COMM], 216, "shift: two sends of startup + 8 bytes");
    check_us(r.part[M_WAIT], 20, "shift: waiting for the neighbours' messages");
    check(r.slowest == 1, "shift: processor 1 is the slowest");
}

static void test_bcast(void)
{
    EngineResult r;
    /* x = a(3): the owner, processor 0, broadcasts 8 bytes down a binomial
     * tree. Round 1: 0 -> 1 (0 busy to 108; 1 waits to 118, receives: 123).
     * Round 2: 0 -> 2 (0 busy 108 to 216; arrives 108 + 108 + 10 = 226,
     * 2 receives at 231); 1 -> 3 (sent at 123, arrives 241, 3 at 246). */
    check(predict(HEAD "  x = a(3)\nend program t\n", 4, &r), "broadcast predicts");
    check_us(r.total, 246, "broadcast tree: the last receiver");
    check_us(r.min_total, 216, "broadcast tree: the root");
}

static void test_reduce(void)
{
    EngineResult r;
    /* s = sum(a): the driver loop 10 + 4 x (1 + 2) = 22 everywhere; then
     * recursive doubling, 2 rounds: send 108 (to 130), the partner's message
     * arrives at 22 + 108 + 10 = 140, receive 5, add 2: 147; again: send
     * to 255, arrival 265, 270, 272. */
    check(predict(HEAD "  s = sum(a)\nend program t\n", 4, &r), "reduction predicts");
    check_us(r.total, 272, "recursive doubling allreduce");
    check_us(r.min_total, 272, "allreduce: everyone ends together");
}

/* An inline reduction whose length is the FORALL index: b(i) = sum(w(1:i))
 * over i = 1..16 on 2 processors (BLOCK: 8 points each), w replicated. The
 * reduction runs 1 + ... + 8 = 36 trips on processor 0, 9 + ... + 16 = 100
 * on processor 1, against 8 x 8 = 64 on both for sum(w(i:i+7)): each trip
 * loop.iter 1 + dadd 2, so processor 1 takes 36 x 3 = 108 us more and
 * processor 0 28 x 3 = 84 us less. */
static void test_triangular(void)
{
    EngineResult r8, ri;
    const char *fmt = HEAD "  real(8) :: w(32)\n  w = 1.0d0\n"
                           "  forall (i = 1:16) b(i) = sum(w(%s))\nend program t\n";
    char buf[512];
    snprintf(buf, sizeof buf, fmt, "i:i+7");      /* not hoisted: it reads i */
    check(predict(buf, 2, &r8), "reduction of length 8 predicts");
    snprintf(buf, sizeof buf, fmt, "1:i");
    check(predict(buf, 2, &ri), "reduction of length i predicts");
    check_us(ri.total - r8.total, 108, "length i: processor 1's 100 trips against 64");
    check_us(ri.min_total - r8.min_total, -84, "length i: processor 0's 36 trips against 64");
}

static void test_itersync(void)
{
    EngineResult r4, r6, r50;
    /* a loop with a shift and a reduction. On 4 processors of the
     * hypercube, under its Gray placement, the second round of the
     * allreduce's recursive doubling pairs the two end processors (ranks 0
     * and 2: coordinates 0 and 3, one element less to add) and the two
     * middle ones: their clocks differ after it, and come back to the same
     * relative state every second iteration. The engine extrapolates blocks
     * of two: T(50) = T(4) + 23 (T(6) - T(4)) */
    const char *fmt = HEAD "  a = 1.0d0\n  do k = 1, %d\n    b(2:15) = a(1:14) + a(3:16)\n"
                           "    s = sum(b)\n  end do\nend program t\n";
    char buf[512];
    snprintf(buf, sizeof buf, fmt, 4);
    int ok = predict(buf, 4, &r4);
    snprintf(buf, sizeof buf, fmt, 6);
    ok = ok && predict(buf, 4, &r6);
    snprintf(buf, sizeof buf, fmt, 50);
    ok = ok && predict(buf, 4, &r50);
    check(ok, "IterSync loops predict");
    check_us(r50.total, (r4.total + 23 * (r6.total - r4.total)) * 1e6,
             "IterSync: 50 iterations = 4 + 23 blocks of two");
    check(r50.extrapolated > 40, "IterSync: the steady iterations were extrapolated");
}

static void test_cond(void)
{
    EngineResult r;
    /* IF (k > 1) THEN x = x + 1 ELSE x = x*2: k = 0, the ELSE taken: the
     * test 4 (a taken ELSE has no test), then dmul 3: 7 */
    check(predict(HEAD "  k = 0\n  x = 1.0d0\n  if (k > 1) then\n    x = x + 1.0d0\n  else\n"
                  "    x = x*2.0d0\n  end if\nend program t\n", 4, &r), "IF predicts");
    check_us(r.total, 4 + 1 + 3, "CondtD: test and cmp, the ELSE body");
    check(predict(HEAD "  k = 5\n  x = 1.0d0\n  if (k > 1) then\n    x = x + 1.0d0\n  else\n"
                  "    x = x*2.0d0\n  end if\nend program t\n", 4, &r), "IF taken predicts");
    check_us(r.total, 4 + 1 + 2 + 2, "CondtD: test, cmp, taken, the THEN body");
}

/* The test SAG with memory accesses that cost: a load found in the cache 1
 * cycle. */
static SagGraph *sag_with_memory(void)
{
    static char text[8192];
    const char *k = "mem.fetch.hit = 0 cycles", *at = strstr(small_sag, k);
    snprintf(text, sizeof text, "%.*smem.fetch.hit = 1 cycles%s", (int)(at - small_sag), small_sag,
             at + strlen(k));
    return sag_load_string("small", text, stderr, NULL);
}

/* The events of processor p of kind k, in the order recorded. */
static int events_of(const Trace *t, int p, TraceKind k, const TraceEvent **out, int max)
{
    int n = 0;
    for (long i = 0; i < t->n; i++)
        if (t->ev[i].proc == p && t->ev[i].kind == k && n < max)
            out[n++] = &t->ev[i];
    return n;
}

/* Per processor, the events other than collectives cover the time from 0
 * to the processor's end without gaps or overlaps, and lie inside the
 * collectives; every receive has its send, earlier. */
static void check_timelines(const Trace *t, const EngineResult *r, const char *what)
{
    char buf[256];
    int tiled = 1, inside = 1, paired = 1;
    double end_max = 0;
    for (int p = 0; p < t->np; p++) {
        double at = 0;
        for (long i = 0; i < t->n; i++) {
            const TraceEvent *e = &t->ev[i];
            if (e->proc != p)
                continue;
            if (e->kind == TR_COLL) {
                for (long j = 0; j < t->n; j++) {
                    const TraceEvent *f = &t->ev[j];
                    if (f->proc == p && f->kind != TR_COLL && f->t1 > e->t0 && f->t0 < e->t1 &&
                        (f->t0 < e->t0 - 1e-15 || f->t1 > e->t1 + 1e-15))
                        inside = 0;
                }
                continue;
            }
            if (fabs(e->t0 - at) > 1e-12)
                tiled = 0;
            at = e->t1;
        }
        if (at > end_max)
            end_max = at;
    }
    for (long i = 0; i < t->n; i++) {
        const TraceEvent *e = &t->ev[i];
        if (e->kind != TR_RECV)
            continue;
        int found = 0;
        for (long j = 0; j < t->n; j++) {
            const TraceEvent *f = &t->ev[j];
            if (f->kind == TR_SEND && f->msg == e->msg && f->proc == e->peer && f->peer == e->proc &&
                f->t0 <= e->t1)
                found = 1;
        }
        paired &= found && e->msg >= 0;
    }
    snprintf(buf, sizeof buf, "%s: each processor's events follow one another from 0", what);
    check(tiled, buf);
    snprintf(buf, sizeof buf, "%s: the steps lie inside their collectives", what);
    check(inside, buf);
    snprintf(buf, sizeof buf, "%s: every receive has its send", what);
    check(paired, buf);
    snprintf(buf, sizeof buf, "%s: the trace ends with the prediction", what);
    check_us(end_max, r->total * 1e6, buf);
}

static void test_trace(void)
{
    EngineResult r;
    Trace t;
    const TraceEvent *ev[64];
    /* the shift of test_shift: processor 0 sends to 1 from 0 to 108 us;
       1 sends its own up, then waits to 118 and receives to 123 */
    trace_init(&t, 4, "t.f90", "small");
    check(predict_traced(HEAD "  b(2:15) = a(1:14) + a(3:16)\nend program t\n", 4, &r, &t),
          "traced shift predicts");
    check_us(r.total, 268, "traced shift: the same prediction");
    int n = events_of(&t, 0, TR_SEND, ev, 64);
    check(n == 1 && ev[0]->peer == 1 && fabs(ev[0]->t1 * 1e6 - 108) < 1e-6 && ev[0]->bytes == 8,
          "trace: processor 0 sends 8 bytes to 1 from 0 to 108 us");
    long m0 = n ? ev[0]->msg : -2;
    n = events_of(&t, 1, TR_RECV, ev, 64);
    int got = 0;
    for (int i = 0; i < n; i++)
        if (ev[i]->peer == 0 && ev[i]->msg == m0 && fabs(ev[i]->t0 * 1e6 - 118) < 1e-6 &&
            fabs(ev[i]->t1 * 1e6 - 123) < 1e-6)
            got = 1;
    check(got, "trace: processor 1 receives that message from 118 to 123 us");
    n = events_of(&t, 1, TR_WAIT, ev, 64);
    check(n >= 1 && fabs(ev[0]->t0 * 1e6 - 108) < 1e-6 && fabs(ev[0]->t1 * 1e6 - 118) < 1e-6,
          "trace: processor 1 waits from 108 to 118 us");
    /* a middle processor: coordinate 2 runs on rank 3 under the Gray
       placement of the hypercube */
    n = events_of(&t, 3, TR_COLL, ev, 64);
    check(n == 1 && !strcmp(ev[0]->name, "shift") && ev[0]->t0 == 0 &&
          fabs(ev[0]->t1 * 1e6 - 246) < 1e-6, "trace: the shift encloses 0 to 246 us on 3");
    n = events_of(&t, 3, TR_COMP, ev, 64);
    check(n >= 1 && ev[n - 1]->line == 7 && ev[n - 1]->aau >= 0 && !strcmp(ev[n - 1]->name, "Seq"),
          "trace: computation carries its line, AAU and class");
    check_timelines(&t, &r, "traced shift");
    trace_free(&t);

    /* the IterSync loop of test_itersync: traced, no iteration is
       extrapolated, and the prediction is the same */
    EngineResult r50;
    const char *loop = HEAD "  a = 1.0d0\n  do k = 1, 50\n    b(2:15) = a(1:14) + a(3:16)\n"
                            "    s = sum(b)\n  end do\nend program t\n";
    trace_init(&t, 4, "t.f90", "small");
    check(predict(loop, 4, &r50) && predict_traced(loop, 4, &r, &t), "traced loop predicts");
    check(r.extrapolated == 0, "traced loop: every iteration interpreted");
    check_us(r.total, r50.total * 1e6, "traced loop: the prediction of the extrapolated run");
    int shifts = 0, reds = 0;
    for (long i = 0; i < t.n; i++)
        if (t.ev[i].kind == TR_COLL) {
            shifts += !strcmp(t.ev[i].name, "shift");
            reds += !strcmp(t.ev[i].name, "allreduce");
        }
    check(shifts == 50 * 4 && reds == 50 * 4, "traced loop: 50 shifts and 50 allreduces on 4");
    check_timelines(&t, &r, "traced loop");
    /* a full trace keeps its first events and counts the rest */
    long all = t.n;
    trace_free(&t);
    trace_init(&t, 4, "t.f90", "small");
    t.max = all / 2;
    check(predict_traced(loop, 4, &r, &t), "traced loop with a small trace predicts");
    check(t.n == all / 2 && t.dropped > 0, "a full trace drops the events beyond its size");
    check_us(r.total, r50.total * 1e6, "a full trace: the same prediction");
    trace_free(&t);

    /* FORALL levels, a mask, and a gather whose rounds are kept from one
       execution to the next, on the machine with memory costs (the
       gather's local copies charged): traced, every charge is an event,
       every message numbered, and the prediction is the untraced one */
    EngineResult ru;
    const char *gat = HEAD "  a = 1.0d0\n  do k = 1, 3\n    forall (i = 1:16) b(i) = a(mod(i, 16) + 1)\n"
                           "    forall (i = 1:16, i > 8) a(i) = b(i)*2.0d0\n  end do\nend program t\n";
    SagGraph *plain = sag;
    sag = sag_with_memory();
    trace_init(&t, 4, "t.f90", "small");
    check(predict(gat, 4, &ru) && predict_traced(gat, 4, &r, &t), "traced gathers predict");
    check_us(r.total, ru.total * 1e6, "traced gathers: the untraced prediction");
    check_us(r.min_total, ru.min_total * 1e6, "traced gathers: the untraced fastest processor");
    for (int m = 0; m < M_N; m++) {
        char what[64];
        snprintf(what, sizeof what, "traced gathers: the untraced %s", metric_name[m]);
        check_us(r.part[m], ru.part[m] * 1e6, what);
    }
    int gathers = 0, sends = 0, recvs = 0;
    for (long i = 0; i < t.n; i++) {
        gathers += t.ev[i].kind == TR_COLL && !strcmp(t.ev[i].name, "gather");
        sends += t.ev[i].kind == TR_SEND && t.ev[i].msg >= 0;
        recvs += t.ev[i].kind == TR_RECV;
    }
    check(gathers == 3 * 4, "traced gathers: 3 gathers on 4 processors");
    check(sends > 0 && sends == recvs, "traced gathers: as many receives as messages sent");
    check(r.part[M_COMP] > 0, "traced gathers: computation charged");
    check_timelines(&t, &r, "traced gathers");
    trace_free(&t);
    sag_free(sag);
    sag = plain;
}

/* The node compiler's optimizations, on the iPSC/860 (whose calls and
 * cache misses cost something). */
static void test_optimizations(void)
{
    SagGraph *small = sag;
    sag = sag_load_string("ipsc860", sag_builtin("ipsc860"), stderr, NULL);
    const SagUnit *node = engine_node_unit(sag);
    EngineResult r0, r1, good, bad;
    /* ten calls of a leaf subroutine with two arguments: inlined, each
       saves the call overhead and two argument costs */
    const char *calls = "program t\n  integer :: k\n  real(8) :: x\n  x = 0.0d0\n"
                        "  do k = 1, 10\n    call add(x, 1.5d0)\n  end do\ncontains\n"
                        "  subroutine add(y, d)\n    real(8) :: y, d\n    y = y + d\n"
                        "  end subroutine add\nend program t\n";
    check(predict(calls, 1, &r0), "calls predict");
    opt_inline = 1;
    check(predict(calls, 1, &r1), "calls predict with inline expansion");
    opt_inline = 0;
    double saved = 10 * (sag_seconds(node, "call.overhead", 0) + 2 * sag_seconds(node, "call.per_arg", 0));
    check(saved > 0, "iPSC/860: a call costs something");
    check_us(r0.total - r1.total, saved * 1e6, "-finline: ten call overheads saved");
    /* a FORALL whose first index runs along the second dimension: the
       emitted nest strides through memory; reordered, it costs what the
       FORALL in subscript order costs */
    const char *head = "program t\n  integer :: i, j\n  real(8) :: a(256, 256), c(256, 256)\n"
                       "  a = 1.0d0\n";
    char text[512];
    snprintf(text, sizeof text, "%s  forall (j = 1:256, i = 1:256) c(i, j) = a(i, j)*2.0d0\n"
             "end program t\n", head);
    check(predict(text, 1, &bad), "a FORALL across the columns predicts");
    snprintf(text, sizeof text, "%s  forall (i = 1:256, j = 1:256) c(i, j) = a(i, j)*2.0d0\n"
             "end program t\n", head);
    check(predict(text, 1, &good), "a FORALL along the columns predicts");
    check(bad.part[M_COMP] > good.part[M_COMP] * 1.2,
          "the emitted order across the columns misses the cache");
    opt_reorder = 1;
    check(predict(text, 1, &r1), "reordered, the good order predicts");
    check_us(r1.total, good.total * 1e6, "-floop-reorder keeps a FORALL already in order");
    snprintf(text, sizeof text, "%s  forall (j = 1:256, i = 1:256) c(i, j) = a(i, j)*2.0d0\n"
             "end program t\n", head);
    check(predict(text, 1, &r1), "reordered, the bad order predicts");
    check_us(r1.total, good.total * 1e6, "-floop-reorder: the bad order costs what the good one does");
    opt_reorder = 0;
    sag_free(sag);
    sag = small;
}

/* small_sag with lines added at the start of the node's processing and
 * memory components and of the machine's comm component. */
static char *small_text(const char *proc, const char *mem, const char *comm)
{
    static const char *const key[3] = {"      processing simple {\n", "      memory simple {\n",
                                       "  comm simple {\n"};
    const char *add[3] = {proc, mem, comm}, *from = small_sag;
    char *text = xmalloc(strlen(small_sag) + strlen(proc) + strlen(mem) + strlen(comm) + 1);
    char *t = text;
    for (int i = 0; i < 3; i++) {
        const char *at = strstr(from, key[i]) + strlen(key[i]);
        memcpy(t, from, (size_t)(at - from));
        t += at - from;
        strcpy(t, add[i]);
        t += strlen(add[i]);
        from = at;
    }
    strcpy(t, from);
    return text;
}

static SagGraph *small_with(const char *proc, const char *mem, const char *comm)
{
    char *text = small_text(proc, mem, comm);
    SagGraph *g = sag_load_string("ext", text, stderr, NULL);
    free(text);
    return g;
}

/* Predicts text on np processors of the small machine with the comm
 * lines added (a topology among them replaces the hypercube); 0 when it
 * does not compile. */
static int predict_comm(const char *comm, const char *text, int np, EngineResult *r)
{
    SagGraph *small = sag;
    char *t = small_text("", "", comm);
    /* "net.topology = bus" in the comm lines: the hypercube's line goes */
    static const char line[] = "    net.topology = hypercube\n";
    char *cube = strstr(comm, "net.topology") ? strstr(t, line) : NULL;
    if (cube)
        memmove(cube, cube + strlen(line), strlen(cube + strlen(line)) + 1);
    sag = sag_load_string("ext", t, stderr, NULL);
    free(t);
    int ok = sag && predict(text, np, r);
    sag_free(sag);
    sag = small;
    return ok;
}

/* The collectives' other algorithms (coll.*.large above coll.*.switch,
 * coll.alltoall), by hand on the small machine: a message of b bytes keeps
 * its sender 100 + b us, arrives 10 us a hop (ranks' popcount distance)
 * later, and is received in 5 us; one that arrived before the receiver
 * was ready costs it 5 us. */
static void test_collective_algorithms(void)
{
    EngineResult r;
    /* s = sum(a), 8 bytes, by the ring: the driver loop takes 22 us, then
     * 3 rounds of a reduce-scatter of 2-byte blocks to the next rank (0->1
     * and 2->3 one hop, 1->2 and 3->0 two), each followed by an add (2 us),
     * then 3 rounds of a ring allgather:
     *   reduce-scatter: 141 151 141 151 (ranks 1, 2, 3, 0 after round 1:
     *   22 + 102 + 10 + 5 + 2 and + 20), 270 everywhere, 389 399 389 399;
     *   allgather: 516 everywhere, 633 643 633 643, then every message
     *   arrives at 755 after its receiver sent (745, 735): 760 */
    check(predict_comm("    coll.reduction.switch = 0 B\n    coll.reduction.large = ring\n",
                       HEAD "  s = sum(a)\nend program t\n", 4, &r), "ring allreduce predicts");
    check_us(r.total, 760, "ring allreduce: reduce-scatter and allgather round the ring");
    check_us(r.min_total, 760, "ring allreduce: everyone ends together");
    /* x = a(3): processor 0 scatters 4 blocks of 2 bytes down a binomial
     * tree (4 bytes to 2: 114, received 119; 2 bytes to 1 and from 2 to
     * 3: 0 at 206, 1 at 221, 2 at 221, 3 at 236), then a ring allgather:
     * round 1 ends 363 328 348 338 (1's message had arrived: 323 + 5),
     * round 2 470 480 455 465, round 3 592 587 607 572 */
    const char *sa = "    coll.broadcast.large = scatter_allgather\n    coll.broadcast.switch = %d B\n";
    char comm[200];
    snprintf(comm, sizeof comm, sa, 0);
    check(predict_comm(comm, HEAD "  x = a(3)\nend program t\n", 4, &r), "scatter-allgather predicts");
    check_us(r.total, 607, "scatter-allgather broadcast: the last of the ring");
    check_us(r.min_total, 572, "scatter-allgather broadcast: the first done");
    /* below the switch, the small algorithms: the tree of test_bcast */
    snprintf(comm, sizeof comm, sa, 8);
    check(predict_comm(comm, HEAD "  x = a(3)\nend program t\n", 4, &r),
          "broadcast at the switch predicts");
    check_us(r.total, 246, "8 bytes at a switch of 8 bytes: still the tree");
    /* a gather on 2 processors: the all-to-all of the counts, linear
     * (both wait for the later, processor 0, then 100 + 4 us to send, 5 to
     * receive the other's: 109) or one round of a 4-byte message each way:
     * processor 1 (7 points against 8) comes 2 us ahead of processor 0 out
     * of the inspector's two passes, its message takes 104 to send and
     * reaches processor 0 at 112, received at 117: 8 us more than linear
     * on processor 0, which sends the requests, the rest of the gather
     * shifted by as much */
    const char *g = HEAD "  b(1:15) = a(16:2:-1)\nend program t\n";
    EngineResult lin, pw, br;
    check(predict(g, 2, &lin), "gather with the linear all-to-all predicts");
    check(predict_comm("    coll.alltoall = pairwise\n", g, 2, &pw),
          "gather with the pairwise all-to-all predicts");
    check(predict_comm("    coll.alltoall = bruck\n", g, 2, &br),
          "gather with Bruck's all-to-all predicts");
    check_us(pw.total - lin.total, 8, "pairwise all-to-all on 2: one exchange, 8 us over linear");
    check_us(br.total - lin.total, 8, "Bruck on 2: one round of one block, as pairwise");
    /* the ring allreduce on a bus: the 4 messages of each round share the
     * medium, their 2 bytes take 4 x 2 us: 108 us to send, everyone
     * alike (one hop): 22 -> 147 -> 272 -> 397 reduce-scatter (send,
     * arrival 10 us later, receive 5, add 2), then 520, 643, 766; with
     * net.contention = off, 6 us less a round: 730 */
    const char *bus = "    net.topology = bus\n    coll.reduction.switch = 0 B\n"
                      "    coll.reduction.large = ring\n%s";
    snprintf(comm, sizeof comm, bus, "");
    check(predict_comm(comm, HEAD "  s = sum(a)\nend program t\n", 4, &r), "ring on a bus predicts");
    check_us(r.total, 766, "ring allreduce on a bus: 4 messages share it each round");
    snprintf(comm, sizeof comm, bus, "    net.contention = off\n");
    check(predict_comm(comm, HEAD "  s = sum(a)\nend program t\n", 4, &r),
          "ring on a bus without contention predicts");
    check_us(r.total, 730, "net.contention = off: each message alone on the bus");
}

/* The memory hierarchy of the bandwidth tests: two levels of 1 KiB and 64
 * KiB at 8 and 4 bytes a microsecond, memory at 2, writes half as fast. */
#define HIERARCHY                                                                       \
    "        cache.l1.size = 1 KiB\n        cache.l1.bandwidth = 8 MB/s\n"              \
    "        cache.l1.bandwidth.write = 4 MB/s\n        cache.l2.size = 64 KiB\n"       \
    "        cache.l2.bandwidth = 4 MB/s\n        cache.l2.bandwidth.write = 2 MB/s\n"  \
    "        mem.bandwidth = 2 MB/s\n        mem.bandwidth.write = 1 MB/s\n"

/* The small machine with a hierarchy: two levels of 1 KiB and 64 KiB at
 * 8 and 4 bytes a microsecond, memory at 2 (writes half as fast), a line
 * from the second level 20 cycles and from memory 100; extra: more lines
 * of its memory component. */
static SagGraph *levels_with(const char *extra)
{
    char mem[1024];
    snprintf(mem, sizeof mem, "%s        cache.l2.fetch = 20 cycles\n%s", HIERARCHY, extra);
    char *text = small_text("", mem, "");
    char *miss = strstr(text, "mem.fetch.miss = 0 cycles");
    if (miss)
        memcpy(miss, "mem.fetch.miss=100 cycles", strlen("mem.fetch.miss = 0 cycles"));
    SagGraph *g = miss ? sag_load_string("levels", text, stderr, NULL) : NULL;
    free(text);
    return g;
}

/* The bandwidth bound: the small machine with a memory hierarchy (two
 * levels of 1 KiB and 64 KiB at 8 and 4 bytes a microsecond, memory at 2,
 * writes half as fast) and its operations made free: a copy loop's time is
 * its traffic over the bandwidth of the level its working set fits in. */
static void test_bandwidth(void)
{
    SagGraph *small = sag;
    sag = small_with("", HIERARCHY, "");
    check(sag != NULL, "a machine with a memory hierarchy loads");
    EngineResult r;
    char prog[512];
    /* b = a on 1 processor, n elements of 8 bytes: setup 10 + n x max(1,
       8 B read + 8 B written over the level's bandwidth): the loop's own
       work (loop.iter, 1 us) goes on while the data streams */
    static const struct { int n; double us; const char *what; } cases[] = {
        {16, 10 + 16 * (8 / 8.0 + 8 / 4.0), "a copy within the first level (2 x 128 B)"},
        {1024, 10 + 1024 * (8 / 4.0 + 8 / 2.0), "a copy within the second level (2 x 8 KiB)"},
        {8192, 10 + 8192 * (8 / 2.0 + 8 / 1.0), "a copy from memory (2 x 64 KiB)"},
    };
    for (int i = 0; i < 3 && sag; i++) {
        snprintf(prog, sizeof prog, "program t\n  real(8) :: a(%d), b(%d)\n  b = a\nend program t\n",
                 cases[i].n, cases[i].n);
        check(predict(prog, 1, &r), cases[i].what);
        check_us(r.total, cases[i].us, cases[i].what);
    }
    /* a statement through a temporary (a is read and written): the buffer
       holds an element an iteration, 1023 x 8 B; with a (8 KiB) the
       working set fits the second level both ways, a to the buffer and
       back: 2 x (10 + 1023 x (8 / 4 + 8 / 2)) */
    if (sag) {
        check(predict("program t\n  real(8) :: a(1024)\n  a(2:1024) = a(1:1023)\nend program t\n",
                      1, &r), "a copy through a temporary predicts");
        check_us(r.total, 2 * (10 + 1023 * (8 / 4.0 + 8 / 2.0)),
                 "a temporary's working set: an element an iteration");
    }
    sag_free(sag);
    /* misses served by the level that holds the data: loads and stores
       cost nothing in the first level, a line costs 20 cycles from the
       second and 100 from memory. b = a: a and b are cold, a quarter of
       their accesses (8 of 32 bytes a line) fetch from memory: 1 + 2 x 25
       an element; then c = b: b is in the second level (16 KiB touched
       since, and itself), c cold: 1 + 5 + 25; the bandwidth bounds (6 us)
       are lower */
    sag = levels_with("");
    check(sag != NULL, "a machine with a line fetch per level loads");
    if (sag) {
        check(predict("program t\n  real(8) :: a(1024), b(1024), c(1024)\n  b = a\n  c = b\n"
                      "end program t\n", 1, &r), "two copies predict");
        check_us(r.total, 10 + 1024 * (1 + 25 + 25) + 10 + 1024 * (1 + 5 + 25),
                 "a miss is served by the level that holds the data");
        sag_free(sag);
    }
    /* prefetched streams (mem.prefetch.stride): the same copies cost their
       bandwidth only: each working set (16 KiB) fits the second level, 8 B
       read at 4 MB/s and 8 B written at 2 MB/s an element, 6 us, the
       loop's 1 us inside */
    sag = levels_with("        mem.prefetch.stride = 4 KiB\n");
    check(sag != NULL, "a machine with prefetchers loads");
    if (sag) {
        check(predict("program t\n  real(8) :: a(1024), b(1024), c(1024)\n  b = a\n  c = b\n"
                      "end program t\n", 1, &r), "two copies predict with prefetchers");
        check_us(r.total, 10 + 1024 * (8 / 4.0 + 8 / 2.0) + 10 + 1024 * (8 / 4.0 + 8 / 2.0),
                 "prefetched: a stream's misses cost its bandwidth");
        sag_free(sag);
    }
    /* strided streams (a stride of a line or more, 32 B here) move a line
       an element at the level's time for a line: a(1, :) = 2 stores a
       line of a, 64 B apart; with a(8, 256) (16 KiB, the second level)
       30 us (cache.l2.store) an element; b = a(1, :) reads one, 20 us
       (cache.l2.fetch), and writes b's 8 B at 2 MB/s, 4 us; with
       a(8, 2048) (128 KiB, memory) a(1, :) = 2 stores a line at 32 B / 2
       MB/s + 32 B / 1 MB/s (mem.store.miss is 0 here) and the hardware
       fetches the second line of its pair at 100 us (mem.fetch.miss) */
    sag = levels_with("        mem.prefetch.stride = 4 KiB\n        cache.l2.store = 30 cycles\n");
    check(sag != NULL, "a machine with a store time per line loads");
    if (sag) {
        check(predict("program t\n  real(8) :: a(8, 256)\n  a(1, :) = 2.0d0\nend program t\n",
                      1, &r), "a strided store predicts");
        check_us(r.total, 10 + 256 * 30.0, "a strided store: a line stored an element");
        check(predict("program t\n  real(8) :: a(8, 256), b(256)\n  b = a(1, :)\nend program t\n",
                      1, &r), "a strided load predicts");
        check_us(r.total, 10 + 256 * (20 + 8 / 2.0),
                 "a strided load: a line fetched an element, beside a contiguous store");
        check(predict("program t\n  real(8) :: a(8, 2048)\n  a(1, :) = 2.0d0\nend program t\n",
                      1, &r), "a strided store from memory predicts");
        check_us(r.total, 10 + 2048 * (32 / 2.0 + 32 / 1.0 + 100),
                 "a strided store from memory: its line and the pair's other");
        sag_free(sag);
    }
    sag = small;
}

/* op.div.overlap: the divider works beside the other units. b = 1 / a +
 * a * a is a divide (12 cycles here), an add (2) and a multiply (3) an
 * element, and the loop's iteration (1): 18 cycles when they add up, 13
 * when the add and multiply run beside the divide, 15.5 when half of them
 * do; the loop's set-up 10. */
static void test_divider(void)
{
    SagGraph *small = sag;
    static const struct { const char *ovl; double per; } cases[] = {
        {"", 18}, {"        op.div.overlap = 1\n", 13}, {"        op.div.overlap = 0.5\n", 15.5},
    };
    for (int i = 0; i < 3; i++) {
        char proc[128];
        snprintf(proc, sizeof proc, "        op.ddiv = 12 cycles\n%s", cases[i].ovl);
        sag = small_with(proc, "", "");
        check(sag != NULL, "a machine with a divider loads");
        if (!sag)
            continue;
        EngineResult r;
        check(predict("program t\n  real(8) :: a(100), b(100)\n  b = 1.0d0 / a + a * a\n"
                      "end program t\n", 1, &r), "a loop with a divide predicts");
        check_us(r.total, 10 + 100 * cases[i].per,
                 i == 0 ? "without op.div.overlap the operations add up"
                 : i == 1 ? "op.div.overlap = 1: the add and the multiply beside the divide"
                          : "op.div.overlap = 0.5: half of them beside it");
        sag_free(sag);
    }
    sag = small;
}

/* libhpfrt's own work in a collective call: rt.coll on every call,
 * rt.coll.self more on one process; an element's broadcast has a region
 * of its own (rt.region). s = a(1) is a broadcast, s = sum(a) a FORALL
 * region with a reduction: the difference each parameter makes. */
static void test_coll_call(void)
{
    SagGraph *small = sag;
    static const char *const prog[2] = {
        "program t\n  real(8) :: a(8), s\n!hpf$ distribute a(block)\n  s = a(1)\n"
        "  print *, s\nend program t\n",
        "program t\n  real(8) :: a(8), s\n!hpf$ distribute a(block)\n  s = sum(a)\n"
        "  print *, s\nend program t\n",
    };
    for (int np = 1; np <= 2; np++)
        for (int k = 0; k < 2; k++) {
            EngineResult r0, r1;
            sag = small_with("        rt.region = 5 us\n", "", "");
            int ok = sag && predict(prog[k], np, &r0);
            sag_free(sag);
            sag = small_with("        rt.region = 5 us\n        rt.coll = 7 us\n"
                             "        rt.coll.self = 3 us\n", "", "");
            ok = ok && sag && predict(prog[k], np, &r1);
            sag_free(sag);
            char what[128];
            snprintf(what, sizeof what, "%s on %d: libhpfrt's work in the call",
                     k ? "a reduction" : "a broadcast", np);
            check(ok, what);
            if (ok)
                check_us(r1.total - r0.total, 7.0 + (np == 1 ? 3 : 0), what);
        }
    /* the broadcast's own region: rt.region = 5 against none */
    EngineResult r0, r1;
    sag = small;
    int ok = predict(prog[0], 1, &r0);
    sag = small_with("        rt.region = 5 us\n", "", "");
    ok = ok && sag && predict(prog[0], 1, &r1);
    sag_free(sag);
    check(ok, "a broadcast predicts with and without rt.region");
    if (ok)
        check_us(r1.total - r0.total, 5, "an element's broadcast has a region of its own");
    sag = small;
}

/* rt.seg: the segments of a distributed level (hpfrt_nseg, hpfrt_seg): at
 * every entry of the outermost level, and once an execution for an inner
 * level (hpfc asks for all of them before the nest, hpfrt_segs:
 * spmd_seg_hoisted), whose entries read them from a table. a = 1 over
 * 8 x 8 on 1 processor: (BLOCK,BLOCK) enters its outer level once (1) and
 * has one inner level (1): 2; (BLOCK,*) runs its first (distributed)
 * dimension innermost, inside the undistributed one: 1; (CYCLIC,CYCLIC)
 * as (BLOCK,BLOCK): 2 (it called the library at each of the inner level's
 * 8 entries before the table: 10). rt.seg = 3 us against none. */
static void test_rt_seg(void)
{
    SagGraph *small = sag;
    static const struct { const char *dist; double us; } cases[] = {
        {"(block, block)", 2 * 3.0}, {"(block, *)", 1 * 3.0}, {"(cyclic, cyclic)", 2 * 3.0},
    };
    for (int i = 0; i < 3; i++) {
        char prog[256];
        snprintf(prog, sizeof prog, "program t\n  real(8) :: a(8, 8)\n!hpf$ distribute a%s\n"
                 "  a = 1.0d0\nend program t\n", cases[i].dist);
        EngineResult r0, r1;
        int ok = predict(prog, 1, &r0);
        sag = small_with("        rt.seg = 3 us\n", "", "");
        ok = ok && sag && predict(prog, 1, &r1);
        sag_free(sag);
        sag = small;
        char what[128];
        snprintf(what, sizeof what, "rt.seg of the distributed levels, inner ones hoisted, %s",
                 cases[i].dist);
        check(ok, what);
        if (ok)
            check_us(r1.total - r0.total, cases[i].us, what);
    }
}

/* net.receive.post: a processor that enters a round late (processor 1,
 * d = its extra work, at least 10 us) gets its partner's message before it
 * has sent its own. Recursive doubling on 2: each sends 8 B (100 + 8 us),
 * one hop (10) later it arrives. late: processor 1's receive is posted
 * after its send, the message arrived before: net.dynamic.receive (50
 * here); early: posted with the send, the message came into it:
 * net.static.receive (5). Processor 0 waits for processor 1's message
 * and receives it (5) either way: the run ends at d + 158 late, at d + 123
 * early: 35 us apart. */
static void test_receive_post(void)
{
    SagGraph *small = sag;
    const char *prog = "program t\n  real(8) :: a(8), s\n  integer :: i\n"
                       "!hpf$ distribute a(block)\n  a = 1.0d0\n"
                       "  forall (i = 5:8) a(i) = a(i) * 2.0d0\n  s = sum(a)\nend program t\n";
    EngineResult r[2];
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        char *text = small_text("", "", k ? "    net.receive.post = early\n" : "");
        const char *was = "net.dynamic.receive = 5 us";
        char *at = strstr(text, was);
        if (at)
            memcpy(at, "net.dynamic.receive =50 us", strlen(was));
        sag = at ? sag_load_string("post", text, stderr, NULL) : NULL;
        free(text);
        ok = ok && sag && predict(prog, 2, &r[k]);
        sag_free(sag);
    }
    sag = small;
    check(ok, "a late processor's exchange predicts with the receives posted late and early");
    if (ok)
        check_us(r[0].total - r[1].total, 35,
                 "net.receive.post = early: the message came into a posted receive");
}

static void test_network(void)
{
    check(hpfmap_place(0, 1) == 0 && hpfmap_place(1, 1) == 1 && hpfmap_place(2, 1) == 3 &&
          hpfmap_place(3, 1) == 2 && hpfmap_place(7, 1) == 4 && hpfmap_place(5, 0) == 5,
          "Gray code");
    check(engine_hops(0, 7) == 3 && engine_hops(5, 5) == 0 && engine_hops(1, 2) == 2, "hops");
    int shape[2] = {4, 2}, c1[2] = {1, 0}, c2[2] = {2, 0}, c3[2] = {1, 1};
    unsigned a1 = (unsigned)hpfmap_rank(2, shape, HPFMAP_GRAY, c1);
    unsigned a2 = (unsigned)hpfmap_rank(2, shape, HPFMAP_GRAY, c2);
    unsigned a3 = (unsigned)hpfmap_rank(2, shape, HPFMAP_GRAY, c3);
    check(engine_hops(a1, a2) == 1 && engine_hops(a1, a3) == 1,
          "grid neighbours are one hop apart under Gray placement");
    check(engine_hops((unsigned)hpfmap_rank(2, shape, HPFMAP_LINEAR, c1),
                      (unsigned)hpfmap_rank(2, shape, HPFMAP_LINEAR, c2)) == 2,
          "(1,0) and (2,0) of 4x2 are ranks 1 and 2 under linear placement: two hops");
    int s8[1] = {8}, x[1] = {3}, y[1] = {4};
    check(engine_hops((unsigned)hpfmap_rank(1, s8, HPFMAP_GRAY, x),
                      (unsigned)hpfmap_rank(1, s8, HPFMAP_GRAY, y)) == 1,
          "ring neighbours 3 and 4 of 8: one hop (ranks 3 and 4 are three apart)");
    /* e-cube routes on 8 nodes, the lowest dimension first: 0->3 takes
       (0,d0) (1,d1); 1->7 (1,d1) (3,d2): the link (1,d1) is shared; 3->0
       takes (3,d0) (2,d1), 0->1 (0,d0): a link's two directions apart */
    int load[8 * 3] = {0}, s1[2] = {0, 1}, d1[2] = {3, 7}, s2[2] = {0, 3}, d2[2] = {3, 0};
    int s3[3] = {0, 2, 1}, d3[3] = {7, 5, 3};
    double f[3];
    engine_cube_contention(3, 2, s1, d1, load, f);
    check(f[0] == 2 && f[1] == 2, "0->3 and 1->7 share the link from 1 along dimension 1");
    engine_cube_contention(3, 2, s2, d2, load, f);
    check(f[0] == 1 && f[1] == 1, "0->3 and 3->0: each direction a channel of its own");
    /* 0->7: (0,d0) (1,d1) (3,d2); 2->5: (2,d0) (3,d1) (1,d2); 1->3: (1,d1) */
    engine_cube_contention(3, 3, s3, d3, load, f);
    int clean = 1;
    for (int i = 0; i < 24; i++)
        clean &= load[i] == 0;
    check(f[0] == 2 && f[1] == 1 && f[2] == 2 && clean,
          "0->7 and 1->3 share (1,d1), 2->5 shares nothing; the loads cleared");
    /* a switched cluster of 2 processes a node: 0->2 and 1->4 leave node
       0 together, 1->4 and 3->5 enter node 2 together: 2 each; 5->4 stays
       in its node */
    int nl[12] = {0}, s4[3] = {0, 1, 3}, d4[3] = {2, 4, 5}, s5[2] = {0, 5}, d5[2] = {2, 4};
    engine_node_contention(2, 3, s4, d4, nl, f);
    check(f[0] == 2 && f[1] == 2 && f[2] == 2, "a node's up-link and down-link shared");
    engine_node_contention(2, 2, s5, d5, nl, f);
    clean = 1;
    for (int i = 0; i < 12; i++)
        clean &= nl[i] == 0;
    check(f[0] == 1 && f[1] == 1 && clean, "a message within a node shares nothing; loads cleared");
    /* the shipped iPSC/860: 75 us + 8 x 0.36 us + 3 us; long: 136 + 1000 x 0.36 + 2 x 3 */
    SagGraph *ipsc = sag_load_string("ipsc860", sag_builtin("ipsc860"), stderr, NULL);
    const SagUnit *node = engine_node_unit(ipsc);
    check(node && strcmp(sag_unit_name(node), "node") == 0 && sag_unit_count(node) == 8,
          "iPSC/860: the 8 cube nodes are the processors");
    check_us(engine_msg_time(node, 8, 1), 75 + 8 * 0.36 + 3, "iPSC/860 short message, 1 hop");
    check_us(engine_msg_time(node, 1000, 2), 136 + 1000 * 0.36 + 2 * 3,
             "iPSC/860 long message, 2 hops");
    sag_free(ipsc);
}

/* The same program predicted on machine a (into r0) and on machine b (into
 * r1), np processors; sag is a again after it. */
static void both(SagGraph *a, SagGraph *b, const char *text, int np, EngineResult *r0,
                 EngineResult *r1, const char *what)
{
    sag = a;
    check(predict(text, np, r0), what);
    sag = b;
    check(predict(text, np, r1), what);
    sag = a;
}

/* The small machine with an integer add and multiply of 1 us each (its
 * own op.iadd and op.imul are free). */
static SagGraph *int_ops_machine(void)
{
    char *text = small_text("", "", "");
    char *add = strstr(text, "op.iadd = 0 cycles"), *mul = strstr(text, "op.imul = 0 cycles");
    if (add)
        memcpy(add, "op.iadd = 1 cycles", strlen("op.iadd = 0 cycles"));
    if (mul)
        memcpy(mul, "op.imul = 1 cycles", strlen("op.imul = 0 cycles"));
    SagGraph *g = add && mul ? sag_load_string("intops", text, stderr, NULL) : NULL;
    free(text);
    return g;
}

/* What hpfc allocates and the passes of a gather's inspector, by hand on
 * the small machine (integer operations and memory free, loop.setup 10,
 * loop.iter 1), one processor: a(i) = a(2*i), i = 1..8 (a loop writing
 * the array it gathers from gathers on one processor too; one that does
 * not reads in place there: test_direct_one), is the counting
 * pass (10 + 8 x 1), the pass recording the subscripts (10 + 8 x 1), the
 * gather (all local, no cost here) and the FORALL (10 + 8 x 1): 54 us;
 * mem.alloc = 4 us adds its index vector and buffer, 8 us. An ALLOCATE of
 * two arrays costs two allocations, its DEALLOCATE none more. Integer
 * division by a constant: a multiply by the reciprocal and shifts (mod:
 * the remainder too, one multiply and add more), a power of two shifts
 * only, with op.iadd = op.imul = 1 us: mod(i, 7) 5 us a point, mod(i, 8)
 * 3, i / 7 3, i / 4 2, against b(i) = i. */
static void test_temporaries(void)
{
    SagGraph *small = sag;
    EngineResult r0, r1;
    const char *g = HEAD "  forall (i = 1:8) a(i) = a(2*i)\nend program t\n";
    check(predict(g, 1, &r0), "a gather on one processor predicts");
    check_us(r0.total, 54, "a gather's inspector: a counting pass and a recording pass");
    /* run 3 times in a DO (set-up 10, 1 an iteration), the invariant
       gather's passes run the first time only (libhpfrt keeps its
       schedule, hpfc asks hpfrt_kept): 10 + 3 + 54 + 2 x 18 = 103 */
    const char *g3 = HEAD "  do k = 1, 3\n    forall (i = 1:8) a(i) = a(2*i)\n  end do\n"
                          "end program t\n";
    check(predict(g3, 1, &r0), "an invariant gather 3 times predicts");
    check_us(r0.total, 103, "an invariant gather 3 times: its inspector's passes once");
    SagGraph *as = small_with("", "        mem.alloc = 4 us\n", "");
    check(as != NULL, "a machine with mem.alloc loads");
    if (as) {
        both(small, as, g, 1, &r0, &r1, "a gather predicts with mem.alloc");
        check_us(r1.total - r0.total, 2 * 4, "mem.alloc: a gather's index vector and buffer");
        const char *al = "program t\n  real(8), allocatable :: u(:), v(:)\n"
                         "  allocate(u(8), v(8))\n  u = 1.0d0\n  v = u\n"
                         "  deallocate(u, v)\nend program t\n";
        both(small, as, al, 1, &r0, &r1, "ALLOCATE predicts with mem.alloc");
        check_us(r1.total - r0.total, 2 * 4, "mem.alloc: an ALLOCATE of two arrays");
        sag_free(as);
    }
    /* rt.gather.remote = 6 us: processor 0 asks processor 1 for the 8
       elements it holds; the requester packs and unpacks (3 us an element)
       before, the owner answers (3 us an element) once the requests have
       come, before its reply: both on the way, 48 us more */
    const char *rg = HEAD "  forall (i = 1:8) b(i) = a(17 - i)\nend program t\n";
    SagGraph *rs = small_with("        rt.gather.remote = 6 us\n", "", "");
    check(rs != NULL, "a machine with rt.gather.remote loads");
    if (rs) {
        both(small, rs, rg, 2, &r0, &r1, "a remote gather predicts with rt.gather.remote");
        check_us(r1.total - r0.total, 8 * 3 + 8 * 3,
                 "rt.gather.remote: the owner answers after the requests have come");
        sag_free(rs);
    }
    static const struct { const char *rhs; double per; } dv[] = {
        {"dble(mod(i, 7))", 5}, {"dble(mod(i, 8))", 3}, {"dble(i / 7)", 3}, {"dble(i / 4)", 2},
    };
    SagGraph *is = int_ops_machine();
    check(is != NULL, "a machine with integer operations loads");
    for (size_t i = 0; is && i < sizeof dv / sizeof *dv; i++) {
        char p0[256], p1[256];
        snprintf(p0, sizeof p0, HEAD "  forall (i = 1:16) b(i) = dble(i)\nend program t\n");
        snprintf(p1, sizeof p1, HEAD "  forall (i = 1:16) b(i) = %s\nend program t\n", dv[i].rhs);
        sag = is;
        int ok = predict(p0, 1, &r0) && predict(p1, 1, &r1);
        sag = small;
        check(ok, dv[i].rhs);
        if (ok)
            check_us(r1.total - r0.total, 16 * dv[i].per, dv[i].rhs);
    }
    sag_free(is);
    sag = small;
}

/* rt.shift.run = 2 us a run of contiguous elements of a slab, packed before
 * its message goes and unpacked after it has come, on 2 processors. Along
 * the first dimension of u(8, 4) (BLOCK,*) a row of 4 elements is 4 runs:
 * processor 0 packs them (8 us) before its message goes up, processor 1
 * unpacks them (8) after it has come, then packs its own (8) for the way
 * down, which processor 0 unpacks (8): 32 us more on the way. Along the
 * second dimension of u(4, 8) (*,BLOCK) a column is one run: 4 x 2 us. */
static void test_shift_runs(void)
{
    SagGraph *small = sag;
    static const struct { const char *decl, *stmt; double us; } sc[] = {
        {"u(8, 4), v(8, 4)\n!hpf$ distribute u(block, *)",
         "forall (i = 2:7, j = 1:4) v(i, j) = u(i - 1, j) + u(i + 1, j)", 32},
        {"u(4, 8), v(4, 8)\n!hpf$ distribute u(*, block)",
         "forall (i = 1:4, j = 2:7) v(i, j) = u(i, j - 1) + u(i, j + 1)", 8},
    };
    SagGraph *rs = small_with("        rt.shift.run = 2 us\n", "", "");
    check(rs != NULL, "a machine with rt.shift.run loads");
    for (size_t i = 0; rs && i < sizeof sc / sizeof *sc; i++) {
        char prog[512];
        snprintf(prog, sizeof prog, "program t\n  integer :: i, j\n  real(8) :: %s\n"
                 "!hpf$ align v(i, j) with u(i, j)\n  u = 1.0d0\n  %s\nend program t\n",
                 sc[i].decl, sc[i].stmt);
        EngineResult r0, r1;
        both(small, rs, prog, 2, &r0, &r1, "a shift predicts with rt.shift.run");
        check_us(r1.total - r0.total, sc[i].us,
                 i == 0 ? "rt.shift.run: a row of (BLOCK,*), an element a run"
                        : "rt.shift.run: a column of (*,BLOCK), one run");
    }
    sag_free(rs);
    sag = small;
}

/* A statement's mean communication per processor, by hand: each case's
 * statement put in a program of the declarations decl. */
typedef struct {
    const char *stmt;
    int np;
    double comm;
    const char *what;
} CommCase;

static void check_comm_cases(const char *decl, const CommCase *sc, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char prog[512];
        snprintf(prog, sizeof prog, "program t\n%s  u = 1.0d0\n  %s\nend program t\n", decl,
                 sc[i].stmt);
        EngineResult r;
        check(predict(prog, sc[i].np, &r), "a shift predicts");
        check_us(r.mean[M_COMM], sc[i].comm, sc[i].what);
    }
}

/* Overlap shifts of the box a statement reads, by hand, on 2 processors
 * of u(8, 8) (BLOCK,*): rows 1-4 and 5-8. Sending a message is 100 us of
 * start-up and 1 us a byte (the communication part; receiving it is not):
 * the mean over the two. One column (u(i +- 1, 3)): a row of the slab is 1
 * element, 8 bytes each way: 108 on each. Every column: 8 elements, 164.
 * Rows 3-4 read (i = 2:3, u(i + 1, 3)): none of the ghost cells, no
 * message. Rows 3-6 (i = 2:5): only processor 1's row 5 goes down, 108
 * there, none on 0. */
static void test_shift_box(void)
{
    static const CommCase sc[] = {
        {"forall (i = 2:7) v(i, 3) = u(i - 1, 3) + u(i + 1, 3)", 2, 108,
         "a shift of one column: an element a message"},
        {"forall (i = 2:7, j = 1:8) v(i, j) = u(i - 1, j) + u(i + 1, j)", 2, 164,
         "a shift of every column: 8 elements a message"},
        {"forall (i = 2:3) v(i, 3) = u(i + 1, 3)", 2, 0,
         "rows 3-4 read: no ghost cell, no message"},
        {"forall (i = 2:5) v(i, 3) = u(i + 1, 3)", 2, 108 / 2.0,
         "rows 3-6 read: one message down"},
    };
    check_comm_cases("  integer :: i, j\n  real(8) :: u(8, 8), v(8, 8)\n"
                     "!hpf$ distribute u(block, *)\n!hpf$ align v(i, j) with u(i, j)\n",
                     sc, sizeof sc / sizeof *sc);
}

/* Overlap shifts along CYCLIC(4) of 20 cells on 2 processors (five blocks:
 * 0, 2, 4 on the first, 1, 3 on the second), by hand with the messages
 * above (100 us and 1 us a byte to send, the mean over the two): the top
 * cell of every block that has a next one goes up, the second processor's
 * round to the first; each processor sends 2 cells a direction (116 us).
 * Cells 1-7 read: only block 0's top cell goes (108 us on processor 0,
 * none on 1). On one processor nothing moves. */
static void test_shift_cyclic(void)
{
    static const CommCase sc[] = {
        {"forall (i = 2:20) v(i) = u(i - 1)", 2, 116,
         "CYCLIC(4): two blocks' top cells a message, up and round"},
        {"forall (i = 2:19) v(i) = u(i - 1) + u(i + 1)", 2, 232,
         "CYCLIC(4): a message each way in each direction, two cells each"},
        {"forall (i = 2:8) v(i) = u(i - 1)", 2, 54,
         "CYCLIC(4), cells 1-7 read: one block's top cell, one message"},
        {"forall (i = 2:19) v(i) = u(i - 1) + u(i + 1)", 1, 0,
         "CYCLIC(4) on one processor: no message"},
    };
    check_comm_cases("  integer :: i\n  real(8) :: u(20), v(20)\n"
                     "!hpf$ distribute u(cyclic(4))\n!hpf$ align v(i) with u(i)\n",
                     sc, sizeof sc / sizeof *sc);
}

/* On one processor a loop that writes none of the arrays it gathers from
 * reads them in place (spmd_direct_one): no inspector, buffer or gather,
 * so rt.gather = 1 ms changes nothing; one that writes the array it
 * gathers from (u(k) = u(ix(k))) still gathers: 1 ms and more. */
static void test_direct_one(void)
{
    SagGraph *small = sag, *ms = small_with("        rt.gather = 1 ms\n", "", "");
    check(ms != NULL, "a machine with rt.gather = 1 ms loads");
    static const struct { const char *stmt; int moves; } cases[] = {
        {"forall (k = 1:16) v(k) = u(ix(k))", 0},
        {"forall (k = 1:16) u(k) = u(ix(k))", 1},
    };
    for (int i = 0; ms && i < 2; i++) {
        char prog[512];
        snprintf(prog, sizeof prog, "program t\n  integer :: k, ix(16)\n  real(8) :: u(16), v(16)\n"
                 "!hpf$ distribute (block) :: u, v, ix\n  u = 1.0d0\n"
                 "  forall (k = 1:16) ix(k) = 17 - k\n  %s\nend program t\n", cases[i].stmt);
        EngineResult r0, r1;
        both(small, ms, prog, 1, &r0, &r1, "a gather on one processor predicts");
        if (cases[i].moves)
            check(r1.total - r0.total >= 1e-3 - 1e-9, "a loop writing the array it gathers from "
                  "still gathers on one processor");
        else
            check_us(r1.total - r0.total, 0, "a loop reading its gathered references in place "
                     "on one processor: no rt.gather");
    }
    sag_free(ms);
}

/* The bytes of a PRINT whose items only the run sizes, by hand, on one
 * processor of the small machine with io.startup = 100 us and
 * io.per_byte = 1 us: an ALLOCATABLE array of n = 20 REAL(8) (260 us),
 * its section w(2:n-1:2) of 9 elements (172), an implied DO to n/2 (180),
 * a triangle (w(i), w(1:i)) for i to 4: 4 + 10 elements (212); READ into
 * the array (260; on one processor its broadcast costs nothing). Each was
 * taken as 1024 elements an unknown extent (8292 us). */
static void test_io_sizes(void)
{
    SagGraph *small = sag;
    const char *io = "      io simple {\n        io.startup = 100 us\n"
                     "        io.per_byte = 1 us\n      }\n";
    const char *at = strstr(small_sag, "      memory simple {\n");
    char text[4096];
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - small_sag), small_sag, io, at);
    sag = sag_load_string("io", text, stderr, NULL);
    check(sag != NULL, "a machine with I/O loads");
    static const struct { const char *stmt; double us; const char *what; } sc[] = {
        {"print *, w", 100 + 160, "an ALLOCATABLE array as a whole: its 20 elements"},
        {"print *, w(2:n - 1:2)", 100 + 72, "a section of variable bounds: 9 elements"},
        {"print *, (w(i), i = 1, n / 2)", 100 + 80, "an implied DO to n/2: 10 elements"},
        {"print *, (w(i), w(1:i), i = 1, 4)", 100 + 8 * 14, "a triangle: 4 + 10 elements"},
        {"read *, w", 100 + 160, "a READ into an ALLOCATABLE array: its 20 elements"},
    };
    for (size_t i = 0; sag && i < sizeof sc / sizeof *sc; i++) {
        char prog[512];
        snprintf(prog, sizeof prog, "program t\n  integer :: n, i\n  real(8), allocatable :: w(:)\n"
                 "  n = 20\n  allocate(w(n))\n  w = 1.0d0\n  %s\nend program t\n", sc[i].stmt);
        EngineResult r0, r;
        char base[512];
        snprintf(base, sizeof base, "program t\n  integer :: n, i\n  real(8), allocatable :: w(:)\n"
                 "  n = 20\n  allocate(w(n))\n  w = 1.0d0\nend program t\n");
        check(predict(prog, 1, &r) && predict(base, 1, &r0), "a PRINT sized at run time predicts");
        check_us(r.part[M_COMM] - r0.part[M_COMM], sc[i].us, sc[i].what);
    }
    sag_free(sag);
    /* reads apart: with io.read.startup = 30 us and io.read.per_byte = 2
       us, the READ of the 20 elements costs 30 + 160 x 2 = 350 us, the
       PRINT of them still 100 + 160 = 260 */
    const char *rio = "      io simple {\n        io.startup = 100 us\n"
                      "        io.per_byte = 1 us\n        io.read.startup = 30 us\n"
                      "        io.read.per_byte = 2 us\n      }\n";
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - small_sag), small_sag, rio, at);
    sag = sag_load_string("io.read", text, stderr, NULL);
    check(sag != NULL, "a machine with reads apart loads");
    static const struct { const char *stmt; double us; const char *what; } rc[] = {
        {"read *, w", 30 + 160 * 2, "a READ with io.read.*: 30 + 160 x 2 us"},
        {"print *, w", 100 + 160, "a PRINT beside io.read.*: io.startup, io.per_byte"},
    };
    for (size_t i = 0; sag && i < sizeof rc / sizeof *rc; i++) {
        char prog[512], base[512];
        const char *head = "program t\n  integer :: n, i\n  real(8), allocatable :: w(:)\n"
                           "  n = 20\n  allocate(w(n))\n  w = 1.0d0\n";
        snprintf(prog, sizeof prog, "%s  %s\nend program t\n", head, rc[i].stmt);
        snprintf(base, sizeof base, "%send program t\n", head);
        EngineResult r0, r;
        check(predict(prog, 1, &r) && predict(base, 1, &r0), "reads apart: predicts");
        check_us(r.part[M_COMM] - r0.part[M_COMM], rc[i].us, rc[i].what);
    }
    sag_free(sag);
    sag = small;
}

/* The extensions for a modern processor (doc/validation.md): each against
 * the small machine without it, on one processor unless said. */
/* Library calls by the class of their arguments (analysis/aag_ops.c), by
 * hand on one processor: lib.sin 10 and lib.sin.reduced 30 against a
 * machine with lib.sin 10 alone (its reduced calls cost 10), so that the
 * difference is 20 us a reduced call; exp 4 and exp.subnormal 40 the same
 * way, 36 us a subnormal result. */
static void test_lib_classes(void)
{
    SagGraph *small = sag;
    SagGraph *plain = small_with("        lib.sin = 10 cycles\n        lib.exp = 4 cycles\n", "", "");
    SagGraph *cls = small_with("        lib.sin = 10 cycles\n        lib.sin.reduced = 30 cycles\n"
                               "        lib.exp = 4 cycles\n        lib.exp.subnormal = 40 cycles\n",
                               "", "");
    check(plain && cls, "machines with argument classes load");
    static const struct { const char *stmt; double extra; const char *what; } lc[] = {
        {"forall (i = 1:16) b(i) = sin(0.05d0*dble(i))", 0,
         "sin of 0.05 .. 0.8: no reduction"},
        {"forall (i = 1:16) b(i) = sin(dble(i) + 10.0d0)", 16 * 20,
         "sin of 11 .. 26: every call reduced"},
        {"forall (i = 1:16) b(i) = sin(dble(i))", 16 * 20 * (16 - 2.426265) / 15,
         "sin of 1 .. 16: the share above 2.426265 reduced"},
        {"forall (i = 1:16) b(i) = sin(-dble(i))", 16 * 20 * (16 - 2.426265) / 15,
         "sin of -16 .. -1: the share below -2.426265 reduced"},
        {"forall (i = 1:16) b(i) = sin(a(i))", 0,
         "sin of an array's values: the range is not known, no class"},
        {"forall (i = 1:16) b(i) = sin(real(i))", 0,
         "REAL(4) sin: no class (another algorithm)"},
        {"forall (i = 1:16) b(i) = exp(dble(i) - 730.0d0)", 16 * 36,
         "exp of -729 .. -714: subnormal results"},
        {"do k = 1, 4\n    x = sin(100.0d0*dble(k))\n  end do", 4 * 20,
         "sin in a DO of constant bounds: 100 .. 400 reduced"},
        {"do k = 1, 4\n    forall (i = 1:16) b(i) = sin(dble(i*k)/16.0d0)\n  end do",
         4 * 16 * 20 * (4 - 2.426265) / (4 - 1.0 / 16),
         "sin of i*k/16 in a DO around a FORALL: 1/16 .. 4, the share above 2.426265"},
    };
    for (size_t i = 0; plain && cls && i < sizeof lc / sizeof *lc; i++) {
        char prog[512];
        EngineResult r0, r1;
        snprintf(prog, sizeof prog, HEAD "  a = 1.0d0\n  %s\nend program t\n", lc[i].stmt);
        both(plain, cls, prog, 1, &r0, &r1, lc[i].what);
        check_us(r1.total - r0.total, lc[i].extra, lc[i].what);
    }
    sag = small;
    sag_free(plain);
    sag_free(cls);
}

static void test_extensions(void)
{
    SagGraph *small = sag;
    EngineResult r0, r1;
    /* vectorized: (*, BLOCK), the inner loop of 16 constant trips; an
       element costs vec.iter 0.5 + vec.op.dmul 1 instead of loop.iter 1 +
       dmul 3: 64 x 2.5 us less. 15 rows (not a multiple of the 2 elements
       of a 16-byte vector), a library call: not vectorized. A distributed
       inner dimension (hpfc's copy of the loop for segments of local
       stride 1, marked !GCC$ vector) is vectorized whatever its trip count:
       60 elements of 15 rows, 150 us less; not under a mask */
    static const struct { const char *decl, *stmt; double saved; const char *what; } vc[] = {
        {"a(16, 4), b(16, 4)\n!hpf$ distribute a(*, block)", "b = a*2.0d0", 160,
         "vectorized: 64 elements at 1.5 us instead of 4"},
        {"a(15, 4), b(15, 4)\n!hpf$ distribute a(*, block)", "b = a*2.0d0", 0,
         "15 trips: not a whole number of vectors"},
        {"a(16, 4), b(16, 4)\n!hpf$ distribute a(*, block)", "b = sin(a)", 0,
         "a library call the vector unit lacks: not vectorized"},
        {"a(16, 4), b(16, 4)\n!hpf$ distribute a(block, *)", "b = a*2.0d0", 160,
         "a distributed inner dimension: vectorized (hpfc marks its unit-stride copy)"},
        {"a(15, 4), b(15, 4)\n!hpf$ distribute a(block, *)", "b = a*2.0d0", 150,
         "a distributed inner dimension of 15: vectorized, whatever its trip count"},
        {"a(16, 4), b(16, 4)\n!hpf$ distribute a(block, *)",
         "forall (i = 1:16, j = 1:4, i > 2) b(i, j) = a(i, j)*2.0d0", 0,
         "a distributed inner dimension, masked: not vectorized"},
    };
    SagGraph *vs = small_with("        vec.iter = 0.5 cycles\n        vec.op.dmul = 1 cycles\n", "", "");
    check(vs != NULL, "a machine with a vector unit loads");
    for (size_t i = 0; vs && i < sizeof vc / sizeof *vc; i++) {
        char prog[512];
        snprintf(prog, sizeof prog,
                 "program t\n  integer :: i, j\n  real(8) :: %s\n!hpf$ align b(i, j) with a(i, j)\n"
                 "  %s\nend program t\n", vc[i].decl, vc[i].stmt);
        both(small, vs, prog, 1, &r0, &r1, vc[i].what);
        check_us(r0.total - r1.total, vc[i].saved, vc[i].what);
    }
    sag_free(vs);
    /* a library function with a vector variant (vec.lib.sin 3, GCC's
       libmvec): b = sin(a) over (*, BLOCK) 16 x 4 is vectorized, an
       element vec.iter 0.5 + 3 instead of loop.iter 1 + lib.sin 10: 64 x
       7.5 us less than on the same machine without vec.lib.sin, where the
       loop stays scalar */
    SagGraph *vn = small_with("        vec.iter = 0.5 cycles\n        lib.sin = 10 cycles\n", "", "");
    SagGraph *vl = small_with("        vec.iter = 0.5 cycles\n        lib.sin = 10 cycles\n"
                              "        vec.lib.sin = 3 cycles\n", "", "");
    check(vn && vl, "machines with and without vec.lib.sin load");
    if (vn && vl) {
        const char *sp = "program t\n  real(8) :: a(16, 4), b(16, 4)\n!hpf$ distribute a(*, block)\n"
                         "!hpf$ align b(i, j) with a(i, j)\n  a = 0.5d0\n  b = sin(a)\nend program t\n";
        both(vn, vl, sp, 1, &r0, &r1, "a vectorized library call predicts");
        check_us(r0.total - r1.total, 64 * 7.5,
                 "vec.lib.sin: the loop vectorized, an element 3.5 us instead of 11");
    }
    sag_free(vn);
    sag_free(vl);
    /* the first store to a page: a and b, 128 B each, 2 pages of 64 B
       each at 5 us, once although the loop runs the statement 10 times */
    SagGraph *ps = small_with("", "        mem.page = 64 B\n        mem.page.first = 5 us\n", "");
    check(ps != NULL, "a machine with a page cost loads");
    const char *touch = HEAD "  do k = 1, 10\n    b = a*2.0d0\n  end do\n  a = b\nend program t\n";
    both(small, ps, touch, 1, &r0, &r1, "first touch: the program predicts with mem.page.first");
    check_us(r1.total - r0.total, 4 * 5, "first touch: 4 pages once");
    check_us(r1.part[M_COMP] - r0.part[M_COMP], 4 * 5, "first touch: computation");
    sag_free(ps);
    /* the run-time library: a gather of b(i) = a(2i), i = 1..8, costs
       rt.gather 20 a call and rt.gather.elem 2 an element (all local on
       one processor); with two, processor 0 asks for 4 local and 4 remote
       elements: 20 + 4 x 2 + 4 x (2 + 3), processor 1 answers 4: 20 + 4 x
       3; the statement's timers (rt.region 7) and the iteration set of its
       distributed dimension (rt.loop 3) once a FORALL */
    SagGraph *rs = small_with("        rt.gather = 20 cycles\n        rt.gather.elem = 2 cycles\n"
                              "        rt.gather.remote = 6 cycles\n", "", "");
    check(rs != NULL, "a machine with run-time library costs loads");
    const char *g = HEAD "  forall (i = 1:8) a(i) = a(2*i)\nend program t\n";
    for (int np = 1; rs && np <= 2; np++) {
        both(small, rs, g, np, &r0, &r1, "a gather predicts with rt.gather");
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], np == 1 ? 20 + 8 * 2 : 20 + 4 * 2 + 4 * 5,
                 np == 1 ? "rt.gather: one call, 8 local elements"
                         : "rt.gather: processor 0 asks for 4 local and 4 remote elements");
    }
    sag_free(rs);
    /* the schedules libhpfrt keeps (hpfrt_gathers_T): with rt.gather.kept 5
       a call and rt.gather.kept.elem 1 an element, a(i) = a(2*i) (an
       invariant index vector) run 10 times inspects once (20 + 8 x 2) and
       goes through its schedule 9 times (5 + 8 x 1): 36 + 9 x 13 = 153 on
       one processor. a(i) = a(2*i + mod(k, 16)), k = 1..40, has 16 index
       vectors, all kept (a call site keeps 16): 16 inspections and 24
       kept, 16 x 36 + 24 x 13 = 888; with mod(k, 17) the 17 vectors evict
       each other (the least recently used goes): 40 inspections, 1440.
       These run on two processors, where every element a(1..32) is
       processor 0's (processor 1 has no iteration): on one, a(i) = a(2*i
       + m) for m >= 7 reads what it does not assign and goes in place
       (direct_apart). On two processors b(i) = a(17 - i) has processor 0 ask for 8 remote
       elements: kept, it pays 5 + 8 x (1 + 6 / 2) and processor 1 answers
       (8 x 3) before; rt.gather.kept.remote 6 */
    SagGraph *ks = small_with("        rt.gather = 20 cycles\n        rt.gather.elem = 2 cycles\n"
                              "        rt.gather.kept = 5 cycles\n"
                              "        rt.gather.kept.elem = 1 cycles\n"
                              "        rt.gather.kept.remote = 6 cycles\n", "", "");
    check(ks != NULL, "a machine with kept schedules' costs loads");
    static const struct { const char *stmt; int last; double ovhd; const char *what; } kc[] = {
        {"forall (i = 1:8) a(i) = a(2*i)", 10, 153, "kept schedule: an invariant gather"},
        {"forall (i = 1:8) a(i) = a(2*i + mod(k, 16))", 40, 888,
         "kept schedule: 16 index vectors, all kept"},
        {"forall (i = 1:8) a(i) = a(2*i + mod(k, 17))", 40, 1440,
         "kept schedule: 17 index vectors evict each other"},
    };
    for (size_t i = 0; ks && i < sizeof kc / sizeof *kc; i++) {
        char prog[512];
        snprintf(prog, sizeof prog,
                 "program t\n  integer :: i, k\n  real(8) :: a(64), b(64)\n"
                 "!hpf$ distribute a(block)\n!hpf$ align b(i) with a(i)\n"
                 "  do k = 1, %d\n    %s\n  end do\nend program t\n", kc[i].last, kc[i].stmt);
        both(small, ks, prog, 2, &r0, &r1, kc[i].what);
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], kc[i].ovhd, kc[i].what);
    }
    /* on one processor the same loop over k = 1..16 gathers only where
       the elements it reads, a(2+m..16+m) with m = mod(k, 16), meet those
       it assigns, a(1..8): for m = 0..6, seven new index vectors (7 x 36 =
       252); for m = 7..15 it reads them in place (no gather) */
    if (ks) {
        const char *ap = "program t\n  integer :: i, k\n  real(8) :: a(64)\n"
                         "!hpf$ distribute a(block)\n"
                         "  do k = 1, 16\n    forall (i = 1:8) a(i) = a(2*i + mod(k, 16))\n"
                         "  end do\nend program t\n";
        both(small, ks, ap, 1, &r0, &r1, "in place where apart");
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], 7 * 36,
                 "in place where apart: 7 of 16 executions gather");
    }
    /* an index vector that depends on a scalar, b(i) = a(2*i + m) with m
       set before the loop, is kept by m's value (hpfrt_gkey): on two
       processors it costs what the invariant a(2*i + 3) costs, the
       key's call aside (call.overhead 0 here): no MPI_Allreduce, the
       inspector's passes skipped while kept */
    for (int np = 1; ks && np <= 2; np++) {
        EngineResult rk, ri;
        const char *fmt = "program t\n  integer :: i, k, m\n  real(8) :: a(64), b(64)\n"
                          "!hpf$ distribute a(block)\n!hpf$ align b(i) with a(i)\n"
                          "  m = 3\n  do k = 1, 10\n    forall (i = 1:8) b(i) = a(2*i + %s)\n"
                          "  end do\nend program t\n";
        char pk[512], pi[512];
        snprintf(pk, sizeof pk, fmt, "m");
        snprintf(pi, sizeof pi, fmt, "3");
        sag = ks;
        check(predict(pk, np, &rk), "kept schedule: a gather keyed by a scalar");
        check(predict(pi, np, &ri), "kept schedule: the invariant gather");
        sag = small;
        char what[128];
        snprintf(what, sizeof what, "kept schedule: keyed by m as the invariant one on %d", np);
        check_us(rk.total, ri.total * 1e6, what);
    }
    const char *kr = HEAD "  do k = 1, 3\n    forall (i = 1:8) b(i) = a(17 - i)\n  end do\n"
                          "end program t\n";
    SagGraph *k0 = small_with("        rt.gather = 20 cycles\n        rt.gather.elem = 2 cycles\n",
                              "", "");
    if (ks && k0) {
        /* against the machine without the kept costs: processor 0 (the
           slowest) pays 2 x (5 + 8 x 4) for its two kept executions */
        both(k0, ks, kr, 2, &r0, &r1, "kept schedule: remote elements");
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], 2 * (5 + 8 * 4),
                 "kept schedule: the remote elements' replies packed and unpacked");
    }
    sag_free(k0);
    /* an index vector read from an array, a(i) = a(ix(i)), may change at
       every execution: on one processor libhpfrt forms each element's
       offset and copies it, keeping no schedule: rt.gather 20 a call and
       rt.gather.kept.elem 1 an element, 3 x (20 + 8) = 84, where a kept
       schedule would cost 36 + 2 x 13 = 62 and an inspection each time 108 */
    const char *ixg = "program t\n  integer :: i, k\n  integer :: ix(64)\n  real(8) :: a(64), b(64)\n"
                      "!hpf$ distribute a(block)\n!hpf$ align b(i) with a(i)\n"
                      "!hpf$ align ix(i) with a(i)\n  forall (i = 1:64) ix(i) = 65 - i\n"
                      "  do k = 1, 3\n    forall (i = 1:8) a(i) = a(ix(i))\n  end do\nend program t\n";
    if (ks) {
        both(small, ks, ixg, 1, &r0, &r1, "a gather through an index array predicts");
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], 3 * (20 + 8),
                 "a gather through an index array on one processor: offsets formed, no schedule");
    }
    sag_free(ks);
    SagGraph *ls = small_with("        rt.region = 7 cycles\n        rt.loop = 3 cycles\n", "", "");
    check(ls != NULL, "a machine with rt.region and rt.loop loads");
    const char *f = HEAD "  do k = 1, 10\n    forall (i = 1:16) b(i) = a(i)*2.0d0\n  end do\nend program t\n";
    both(small, ls, f, 1, &r0, &r1, "a FORALL predicts with rt.region and rt.loop");
    check_us(r1.total - r0.total, 10 * (7 + 3), "rt.region and rt.loop: once each execution");
    sag_free(ls);
    /* an overlap shift costs the library's own work, rt.shift 9, on every
       processor when the dimension is spread over several */
    SagGraph *ss = small_with("        rt.shift = 9 cycles\n", "", "");
    check(ss != NULL, "a machine with rt.shift loads");
    const char *sh = HEAD "  forall (i = 2:15) b(i) = a(i - 1) + a(i + 1)\nend program t\n";
    for (int np = 1; ss && np <= 2; np++) {
        both(small, ss, sh, np, &r0, &r1, "a shift predicts with rt.shift");
        check_us(r1.part[M_OVHD] - r0.part[M_OVHD], np == 1 ? 0 : 9,
                 np == 1 ? "rt.shift: no shift on one processor" : "rt.shift: once a shift");
    }
    sag_free(ss);
    /* the first layout of a run, rt.start 13, once on every processor */
    SagGraph *st = small_with("        rt.start = 13 cycles\n", "", "");
    check(st != NULL, "a machine with rt.start loads");
    for (int np = 1; st && np <= 2; np++) {
        both(small, st, f, np, &r0, &r1, "a FORALL in a loop predicts with rt.start");
        check_us(r1.total - r0.total, 13, "rt.start: once a run");
    }
    sag_free(st);
    /* a reduction's chain: red.sum 5 us an element, the loop's 1 us
       included, against loop.iter 1 + dadd 2: s = sum(a) over 16 elements
       costs 16 x 2 us more; a maximum (red.max not given) nothing more */
    SagGraph *cs = small_with("        red.sum = 5 cycles\n", "", "");
    check(cs != NULL, "a machine with red.sum loads");
    /* an inline reduction in a FORALL the same: b(i) = sum(c(:, i)) over 4
       columns of 4, each element 2 us more; a sum along the rows,
       b(i) = sum(c(i, :)), is turned by hpfc (a DO over the row's 8
       elements of FORALLs over i, doc/spmd.md): its element's terms are 4
       iterations apart, no chain to wait */
    static const struct { const char *stmt; double more; const char *what; } rc[] = {
        {"x = sum(a)", 16 * 2, "red.sum: each element waits for the one before"},
        {"x = maxval(a)", 0, "red.max not given: a maximum as before"},
        {"forall (i = 1:4) b(i) = sum(c(:, i))", 4 * 4 * 2,
         "red.sum: an inline reduction's elements wait for the one before"},
        {"forall (i = 1:4) b(i) = sum(c(i, :))", 0,
         "red.sum: a sum along rows, turned, waits no chain"},
    };
    for (size_t i = 0; cs && i < sizeof rc / sizeof *rc; i++) {
        char prog[256];
        snprintf(prog, sizeof prog, HEAD "  real(8) :: c(4, 8)\n  c = 1.0d0\n  %s\n"
                 "end program t\n", rc[i].stmt);
        both(small, cs, prog, 1, &r0, &r1, rc[i].what);
        check_us(r1.total - r0.total, rc[i].more, rc[i].what);
    }
    /* a REAL sum over a distributed dimension, vectorized in order
       (spmd_vector_loop): x = sum(a*3.0d0), 16 elements. Scalar, an
       element is loop.iter 1 + max(dmul 3 + dadd 2, the chain 5 - 1) = 6;
       vectorized (vec.iter 0.5, vec.op.dmul 1, vec.op.dadd 1) it is
       0.5 + max(1 + 1, 5 - 0.5) = 5: the chain still bounds it, 16 us
       less; and a = 1.0d0 before it, vectorized, 16 x 0.5 less */
    SagGraph *vsum = small_with("        red.sum = 5 cycles\n        vec.iter = 0.5 cycles\n"
                                "        vec.op.dmul = 1 cycles\n        vec.op.dadd = 1 cycles\n",
                                "", "");
    if (cs && vsum) {
        const char *ps = HEAD "  a = 1.0d0\n  x = sum(a*3.0d0)\nend program t\n";
        both(cs, vsum, ps, 1, &r0, &r1, "a REAL sum vectorized in order predicts");
        check_us(r0.total - r1.total, 16 * 1 + 16 * 0.5,
                 "a REAL sum vectorized in order: its chain bounds it");
    }
    sag_free(vsum);
    /* a product: red.prod 9 us an element against loop.iter 1 + dmul 3,
       16 x 5 us more; without red.prod, red.sum's 5: 16 x 1 */
    SagGraph *ps2 = small_with("        red.sum = 5 cycles\n        red.prod = 9 cycles\n", "", "");
    check(ps2 != NULL, "a machine with red.prod loads");
    const char *prod = HEAD "  x = product(a)\nend program t\n";
    both(small, cs, prod, 1, &r0, &r1, "a product predicts without red.prod");
    check_us(r1.total - r0.total, 16 * 1, "red.prod not given: a product waits as a sum");
    both(small, ps2, prod, 1, &r0, &r1, "a product predicts with red.prod");
    check_us(r1.total - r0.total, 16 * 5, "red.prod: each factor waits for the product before");
    sag_free(ps2);
    /* red.window 4: an inline product of columns of 8, b(i) = product(c(:, i))
       (a product along rows is turned by hpfc, as a sum is),
       waits (1 - 4/8) x 9 = 4.5 us an element, loop included, against 4:
       4 x 8 x 0.5 us more; a window of 8 holds the row: nothing more; a
       whole-array product (no next row) waits the whole latency */
    static const struct { const char *win, *stmt; double more; const char *what; } wc[] = {
        {"4", "forall (i = 1:4) b(i) = product(c(:, i))", 4 * 8 * 0.5,
         "red.window 4: a row of 8 waits half the latency"},
        {"8", "forall (i = 1:4) b(i) = product(c(:, i))", 0,
         "red.window 8: the window holds a row of 8"},
        {"4", "forall (i = 1:4) b(i) = product(c(i, :))", 0,
         "red.window: a product along rows, turned, waits no chain"},
        {"4", "x = product(a)", 16 * 5, "red.window: a whole-array product waits it all"},
    };
    for (size_t i = 0; i < sizeof wc / sizeof *wc; i++) {
        char line[128], prog[256];
        snprintf(line, sizeof line, "        red.prod = 9 cycles\n        red.window = %s\n",
                 wc[i].win);
        SagGraph *ws = small_with(line, "", "");
        check(ws != NULL, "a machine with red.window loads");
        snprintf(prog, sizeof prog, HEAD "  real(8) :: c(8, 8)\n  c = 1.0d0\n  %s\n"
                 "end program t\n", wc[i].stmt);
        if (ws) {
            both(small, ws, prog, 1, &r0, &r1, wc[i].what);
            check_us(r1.total - r0.total, wc[i].more, wc[i].what);
            sag_free(ws);
        }
    }
    sag_free(cs);
    /* the comm component's extensions: comm.jitter 0.5 and the first
       reduction's set-up, 7 us, measured over 1 ms (so that the times
       below are shorter than its interval: the deviation is comm.jitter
       of them). b = 2a then x = sum(b) on 2 processors, 8 elements each:
       10 + 8 x (1 + 3) and 10 + 8 x (1 + 2) before the reduction, which
       waits 0.5 x 0.5642 (the expected maximum of two normals) of those 76
       us more, and costs 7 us more the first time only; on one processor
       neither */
    SagGraph *js = small_with("", "", "    comm.jitter = 0.5\n    comm.jitter.interval = 1 ms\n"
                                      "    coll.first.reduction = 7 us\n");
    check(js != NULL, "a machine with comm.jitter and coll.first.reduction loads");
    const char *rd = HEAD "  forall (i = 1:16) b(i) = a(i)*2.0d0\n  x = sum(b)\nend program t\n";
    const char *rd2 = HEAD "  forall (i = 1:16) b(i) = a(i)*2.0d0\n  x = sum(b)\n  x = sum(b)\n"
                           "end program t\n";
    for (int np = 1; js && np <= 2; np++) {
        both(small, js, rd, np, &r0, &r1, "a reduction predicts with comm.jitter");
        check_us(r1.total - r0.total, np == 1 ? 0 : 0.5 * 0.5642 * 76 + 7,
                 np == 1 ? "jitter and first reduction: nothing on one processor"
                         : "jitter: the expected lateness of the last of two, and the first "
                           "reduction's set-up");
    }
    if (js) {
        /* the second reduction: its 34 us since the first, no set-up */
        both(small, js, rd2, 2, &r0, &r1, "two reductions predict with comm.jitter");
        check_us(r1.total - r0.total, 0.5 * 0.5642 * (76 + 34) + 7,
                 "jitter counts from the last communication; the set-up once");
        sag_free(js);
    }
    /* a reduction after a loop of N iterations, measured over 10 us: the
       loop costs 10 + N x (1 + 2) on both processors, the reduction's own
       loop 10 + 8 x (1 + 2) = 34 before the allreduce, T = 44 + 3N; T is
       T/10 intervals of 10 us varying independently, its deviation 0.5 x
       sqrt(10 T), the last of two later by 0.5642 of that: once, for the
       one synchronization, not 0.5 x 0.5642 x T (858.7 us at N = 1000) */
    SagGraph *jl = small_with("", "", "    comm.jitter = 0.5\n    comm.jitter.interval = 10 us\n");
    check(jl != NULL, "a machine with comm.jitter.interval loads");
    static const struct { int n; double more; } jn[] = {
        {10, 0.5642 * 0.5 * 27.2029410174709},      /* sqrt(10 x 74): 7.673 us */
        {1000, 0.5642 * 0.5 * 174.470627900515},    /* sqrt(10 x 3044): 49.218 us */
    };
    for (size_t i = 0; jl && i < sizeof jn / sizeof *jn; i++) {
        char prog[512], what[96];
        snprintf(prog, sizeof prog, HEAD "  s = 0.0d0\n  do k = 1, %d\n    s = s + 1.5d0\n"
                 "  end do\n  x = sum(b)\nend program t\n", jn[i].n);
        snprintf(what, sizeof what, "jitter of a reduction after %d iterations", jn[i].n);
        both(small, jl, prog, 2, &r0, &r1, what);
        check_us(r1.total - r0.total, jn[i].more, what);
    }
    sag_free(jl);
    sag = small;
}

int main(void)
{
    sag = sag_load_string("small", small_sag, stderr, NULL);
    if (!sag) {
        printf("not ok 1 - the test SAG loads\n1..1\n");
        return 1;
    }
    test_network();
    test_iterd();
    test_forall_nest();
    test_forall();
    test_shift();
    test_bcast();
    test_reduce();
    test_triangular();
    test_itersync();
    test_collective_algorithms();
    test_cond();
    test_trace();
    test_optimizations();
    test_bandwidth();
    test_divider();
    test_coll_call();
    test_receive_post();
    test_rt_seg();
    test_temporaries();
    test_shift_runs();
    test_shift_box();
    test_shift_cyclic();
    test_direct_one();
    test_io_sizes();
    test_lib_classes();
    test_extensions();
    sag_free(sag);
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
