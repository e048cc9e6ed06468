/* test_sag.c - the SAG reader: unit conversion, lookups with inheritance on
 * the built-in ipsc860 description, and a small inline SAG written back and
 * read again to the same graph. Prints TAP; exits 1 when a check failed. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sag.h"

#include "tap.h"

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* one parameter of a one-unit SAG, written NAME = VALUE in COMP */
static SagGraph *one(const char *comp, const char *line, FILE *err)
{
    char text[256];
    snprintf(text, sizeof text, "unit m {\n  %s simple {\n    %s\n  }\n}\n", comp, line);
    return sag_load_string("inline.sag", text, err, NULL);
}

static void conversions(void)
{
    static const struct {
        const char *comp, *line, *name;
        SagKind kind;
        double value;
    } cases[] = {
        {"processing", "cpu.clock = 40 MHz", "cpu.clock", SAG_FREQ, 40e6},
        {"processing", "cpu.clock = 1.5 GHz", "cpu.clock", SAG_FREQ, 1.5e9},
        {"comm", "net.static.startup = 75 us", "net.static.startup", SAG_TIME, 75e-6},
        {"comm", "net.static.per_byte = 0.36 us", "net.static.per_byte", SAG_TIME, 0.36e-6},
        {"comm", "net.static.per_hop = 20 ns", "net.static.per_hop", SAG_TIME, 20e-9},
        {"io", "io.startup = 2 ms", "io.startup", SAG_TIME, 2e-3},
        {"io", "io.startup = 1e-3 s", "io.startup", SAG_TIME, 1e-3},
        {"memory", "dcache.size = 8 KiB", "dcache.size", SAG_SIZE, 8192},
        {"memory", "mem.size = 16 MiB", "mem.size", SAG_SIZE, 16777216},
        {"memory", "mem.page = 4096 B", "mem.page", SAG_SIZE, 4096},
        {"comm", "net.bandwidth = 2.8 MB/s", "net.bandwidth", SAG_RATE, 2.8e6},
        {"memory", "dcache.assoc = 2", "dcache.assoc", SAG_COUNT, 2},
        {"memory", "custom.thing = 7 ns", "custom.thing", SAG_TIME, 7e-9},
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SagGraph *g = one(cases[i].comp, cases[i].line, stderr);
        const SagParam *q = g ? sag_lookup(sag_root(g), cases[i].name) : NULL;
        if (!q || q->kind != cases[i].kind || !near(q->value, cases[i].value)) {
            printf("# %s: got %s %g\n", cases[i].line, q ? sag_kind_name(q->kind) : "nothing",
                   q ? q->value : 0.0);
            ok = 0;
        }
        sag_free(g);
    }
    check(ok, "values are converted to base units (s, B, B/s, Hz, counts)");

    SagGraph *g = sag_load_string("inline.sag",
        "unit m {\n processing simple {\n  cpu.clock = 40 MHz\n  op.fdiv = 22 cycles\n }\n}\n",
        stderr, NULL);
    const SagParam *q = g ? sag_lookup(sag_root(g), "op.fdiv") : NULL;
    check(q && q->kind == SAG_CYCLES && q->value == 22 && q->clock_hz == 40e6 &&
          near(sag_seconds(sag_root(g), "op.fdiv", 0), 22 / 40e6),
          "cycles are kept with the unit's clock and convert to seconds");
    sag_free(g);

    g = one("memory", "dcache.replacement = lru", stderr);
    q = g ? sag_lookup(sag_root(g), "dcache.replacement") : NULL;
    check(q && q->kind == SAG_KEYWORD && strcmp(q->keyword, "lru") == 0,
          "keyword values are kept as words");
    sag_free(g);

    FILE *null = fopen("/dev/null", "w");
    int nerr = 0;
    g = sag_load_string("bad.sag", "unit m {\n processing simple {\n  cpu.clock = 40 us\n }\n}\n",
                        null, &nerr);
    check(!g && nerr == 1, "a time given for a frequency is one error");
    g = sag_load_string("bad.sag", "unit m {\n processing simple {\n  op.fadd = 3 cycles\n }\n}\n",
                        null, &nerr);
    check(!g && nerr == 1, "cycles without a clock are an error");
    g = sag_load_string("bad.sag", "", null, &nerr);
    check(!g && nerr == 1, "an empty file is an error");
    if (null)
        fclose(null);
}

static void ipsc860(void)
{
    const char *text = sag_builtin("ipsc860");
    check(text != NULL && sag_builtin("cray") == NULL, "ipsc860 is built in");
    SagGraph *g = text ? sag_load_string("ipsc860", text, stderr, NULL) : NULL;
    check(g != NULL, "the built-in ipsc860 loads without errors");
    if (!g)
        return;
    const SagUnit *root = sag_root(g);
    const SagUnit *node = sag_find_unit(g, "cube/node");
    const SagUnit *cube = sag_find_unit(g, "ipsc860/cube");
    check(strcmp(sag_unit_name(root), "ipsc860") == 0 && sag_unit(g, 0) == root &&
          sag_unit_parent(root) == NULL, "the root unit is the whole system");
    check(node && cube && sag_unit_parent(node) == cube && sag_unit_count(node) == 8 &&
          sag_unit_comp(node) == SAG_PROCESSING && sag_find_unit(g, "cube/nope") == NULL,
          "cube/node is found by path and has 8 instances");
    check(sag_find_unit(g, "srm") && sag_find_unit(g, "link") &&
          sag_unit_nchildren(root) == 3, "the SRM host, the cube and the link are there");
    if (!node || !cube) {
        sag_free(g);
        return;
    }
    check(sag_value(node, "cpu.clock", 0) == 40e6, "node clock is 40 MHz");
    check(sag_value(node, "dcache.size", 0) == 8192 && sag_value(node, "icache.size", 0) == 4096 &&
          sag_value(node, "mem.size", 0) == 8 * 1048576.0, "node caches 8 KiB / 4 KiB, 8 MiB memory");
    check(near(sag_seconds(node, "net.static.startup.short", 0), 75e-6) &&
          near(sag_seconds(node, "net.static.startup", 0), 136e-6),
          "net startup 75 us short / 136 us long, inherited from the cube");
    check(near(sag_value(node, "net.bandwidth", 0), 2.8e6), "link bandwidth 2.8 MB/s");
    check(near(sag_seconds(node, "op.fadd", 0), 3 / 40e6), "fadd is 3 cycles at 40 MHz");
    const SagParam *t = sag_lookup(node, "net.topology");
    check(t && t->kind == SAG_KEYWORD && strcmp(t->keyword, "hypercube") == 0 &&
          sag_lookup(sag_find_unit(g, "link"), "op.fadd") == NULL,
          "topology hypercube; lookups do not reach into siblings");
    check(sag_form(cube, SAG_MEMORY) == SAG_VOID && sag_form(cube, SAG_COMM) == SAG_SIMPLE &&
          sag_form(cube, SAG_PROCESSING) == SAG_COMPOUND, "component forms");
    static const char *const table2[] = {
        "op.iadd", "op.imul", "op.idiv", "op.fadd", "op.fmul", "op.fdiv", "op.itof",
        "op.ftoi", "loop.setup", "loop.iter", "loop.step", "cond.test", "cond.taken",
        "call.overhead", "lib.abs", "lib.exp", "lib.sqrt", "dcache.size", "dcache.block",
        "dcache.assoc", "dcache.replacement", "dcache.write", "icache.size", "icache.block",
        "mem.size", "mem.page", "mem.fetch.hit", "mem.fetch.miss", "mem.store.hit",
        "mem.store.miss", "mem.fetch.pipelined", "mem.store.pipelined", "mem.access",
        "mem.tlb_miss", "mem.rw_switch", "net.topology", "net.routing", "net.static.buffer",
        "net.static.startup", "net.static.per_byte", "net.static.per_hop",
        "net.static.receive", "net.dynamic.startup", "net.dynamic.per_byte",
        "net.dynamic.per_hop", "net.dynamic.receive", "sync.overhead", "coll.broadcast",
        "coll.multicast", "coll.reduction", "coll.shift", "io.startup", "io.per_byte",
    };
    int missing = 0;
    for (size_t i = 0; i < sizeof table2 / sizeof table2[0]; i++)
        if (!sag_lookup(node, table2[i])) {
            printf("# missing %s\n", table2[i]);
            missing++;
        }
    check(missing == 0, "the node sees every parameter of the paper's Table 2");
    sag_free(g);
}

static char *write_to_string(const SagGraph *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    sag_write(f, g);
    fclose(f);
    return buf;
}

static void roundtrip(void)
{
    static const char text[] =
        "# a two-level machine\n"
        "unit box {\n"
        "  processing compound {\n"
        "    unit cpu [4] {\n"
        "      processing simple {\n"
        "        cpu.clock = 100 MHz   # basis: estimate\n"
        "        op.fmul = 2 cycles\n"
        "      }\n"
        "      memory simple { dcache.size = 16 KiB }\n"
        "    }\n"
        "  }\n"
        "  memory void\n"
        "  comm simple {\n"
        "    net.topology = ring\n"
        "    net.static.per_byte = 10 ns\n"
        "    net.bandwidth = 100 MB/s\n"
        "  }\n"
        "}\n";
    SagGraph *g = sag_load_string("inline.sag", text, stderr, NULL);
    char *w1 = g ? write_to_string(g) : NULL;
    SagGraph *g2 = w1 ? sag_load_string("written.sag", w1, stderr, NULL) : NULL;
    char *w2 = g2 ? write_to_string(g2) : NULL;
    check(w1 && w2 && strcmp(w1, w2) == 0, "a written graph reads back and writes the same text");
    const SagUnit *c = g2 ? sag_find_unit(g2, "cpu") : NULL;
    check(c && sag_unit_count(c) == 4 && sag_value(c, "cpu.clock", 0) == 100e6 &&
          sag_value(c, "dcache.size", 0) == 16384 &&
          near(sag_seconds(c, "op.fmul", 0), 2 / 100e6) &&
          near(sag_seconds(c, "net.static.per_byte", 0), 10e-9) &&
          strcmp(sag_lookup(c, "net.topology")->keyword, "ring") == 0 &&
          sag_nunits(g2) == 2, "the values survive the round trip");
    free(w1);
    free(w2);
    sag_free(g);
    sag_free(g2);
}

int main(void)
{
    conversions();
    ipsc860();
    roundtrip();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
