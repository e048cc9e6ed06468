/* test_sag.c - the SAG reader: unit conversion, lookups with inheritance on
 * the built-in ipsc860 description, a small inline SAG written back and read
 * again to the same graph, and the experiments (sag_experiment) on ipsc860.
 * Prints TAP; exits 1 when a check failed. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
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

/* ---- experiments ---- */

static SagGraph *ipsc(void)
{
    return sag_load_string("ipsc860", sag_builtin("ipsc860"), stderr, NULL);
}

/* Applies the experiments, NULL-terminated; reports the first refused. */
static int apply(SagGraph *g, ...)
{
    va_list ap;
    va_start(ap, g);
    int ok = 1;
    for (const char *a; ok && (a = va_arg(ap, const char *));) {
        char err[256];
        if (sag_experiment(g, a, err, sizeof err) != 0) {
            printf("# %s: %s\n", a, err);
            ok = 0;
        }
    }
    va_end(ap);
    return ok;
}

static int own_count(const SagUnit *u, SagComp c, const char *name)
{
    int n = 0;
    for (int i = 0; i < sag_nparams(u, c); i++)
        n += strcmp(sag_param(u, c, i)->name, name) == 0;
    return n;
}

static void experiment_table(void)
{
    const SagExperiment *e = sag_experiments();
    int n = 0, ok = 1, speed = 0;
    for (; e[n].name; n++) {
        ok &= e[n].value && *e[n].value && e[n].help && *e[n].help && !strchr(e[n].help, '\n');
        speed |= strcmp(e[n].name, "cpu.speed") == 0;
    }
    check(n == 4 && ok && speed, "four named experiments, each with a one-line description");
}

static void cpu_speed(void)
{
    SagGraph *g = ipsc();
    const SagUnit *node = sag_find_unit(g, "cube/node"), *srm = sag_find_unit(g, "srm");
    check(apply(g, "cpu.speed=2", NULL), "cpu.speed=2 is accepted");
    check(sag_value(node, "cpu.clock", 0) == 80e6 && sag_value(srm, "cpu.clock", 0) == 50e6,
          "cpu.speed=2 doubles every clock");
    check(near(sag_seconds(node, "op.fadd", 0), 3 / 80e6) &&
          near(sag_seconds(node, "op.ddiv", 0), 38 / 80e6) &&
          near(sag_seconds(node, "lib.sin", 0), 140 / 80e6) &&
          near(sag_seconds(srm, "op.iadd", 0), 2 / 50e6),
          "cpu.speed=2 halves the costs given in cycles");
    check(near(sag_seconds(node, "mem.fetch.hit", 0), 2 / 80e6) &&
          near(sag_seconds(node, "mem.tlb_miss", 0), 25 / 80e6),
          "cpu.speed=2 halves memory costs given in cycles too");
    const SagParam *q = sag_lookup(node, "op.fadd");
    check(q && q->kind == SAG_CYCLES && q->value == 3 && q->clock_hz == 80e6,
          "a cost in cycles keeps its count and takes the new clock");
    check(near(sag_seconds(srm, "op.fadd", 0), 6e-6) &&
          near(sag_seconds(node, "net.static.startup", 0), 136e-6) &&
          near(sag_seconds(node, "io.per_byte", 0), 1e-6),
          "cpu.speed=2 leaves costs given in absolute time");
    check(sag_value(node, "cpu.peak.sp", 0) == 160 && sag_value(node, "cpu.peak.dp", 0) == 80,
          "cpu.speed=2 doubles the peak rates");
    check(apply(g, "cpu.speed*=0.5", NULL) && sag_value(node, "cpu.clock", 0) == 40e6 &&
          near(sag_seconds(node, "op.fadd", 0), 3 / 40e6), "cpu.speed*=0.5 undoes it");
    sag_free(g);

    g = ipsc();
    node = sag_find_unit(g, "cube/node");
    srm = sag_find_unit(g, "srm");
    check(apply(g, "srm/cpu.clock=50MHz", NULL) && sag_value(srm, "cpu.clock", 0) == 50e6 &&
          near(sag_seconds(srm, "op.iadd", 0), 2 / 50e6) &&
          sag_value(node, "cpu.clock", 0) == 40e6 && near(sag_seconds(node, "op.fadd", 0), 3 / 40e6),
          "srm/cpu.clock=50MHz changes the host's clock and its cycles, not the nodes'");
    check(apply(g, "cpu.clock*=2", NULL) && sag_value(node, "cpu.clock", 0) == 80e6 &&
          sag_value(node, "cpu.peak.sp", 0) == 160 && near(sag_seconds(node, "op.fadd", 0), 3 / 80e6),
          "cpu.clock*=2 is cpu.speed=2");
    sag_free(g);
}

static void net_bandwidth(void)
{
    SagGraph *g = ipsc();
    const SagUnit *node = sag_find_unit(g, "cube/node"), *link = sag_find_unit(g, "link");
    check(apply(g, "net.bandwidth=2", NULL), "net.bandwidth=2 is accepted");
    check(near(sag_seconds(node, "net.static.per_byte", 0), 0.18e-6) &&
          near(sag_seconds(node, "net.dynamic.per_byte", 0), 0.195e-6) &&
          near(sag_seconds(link, "net.static.per_byte", 0), 0.18e-6),
          "net.bandwidth=2 halves every per-byte time");
    check(near(sag_value(node, "net.bandwidth", 0), 5.6e6) &&
          near(sag_value(link, "net.bandwidth", 0), 5.6e6), "net.bandwidth=2 doubles the rates");
    check(near(sag_seconds(node, "net.static.startup", 0), 136e-6) &&
          near(sag_seconds(node, "net.static.startup.short", 0), 75e-6) &&
          near(sag_seconds(node, "net.static.per_hop", 0), 3e-6) &&
          near(sag_seconds(node, "io.per_byte", 0), 1e-6),
          "net.bandwidth=2 leaves start-ups, hops and I/O");
    sag_free(g);

    g = ipsc();
    node = sag_find_unit(g, "cube/node");
    check(apply(g, "net.bandwidth=10MB/s", NULL) && sag_value(node, "net.bandwidth", 0) == 10e6 &&
          near(sag_seconds(node, "net.static.per_byte", 0), 0.36e-6 * 2.8 / 10),
          "net.bandwidth=10MB/s sets the rate and the per-byte times follow");
    check(apply(g, "net.bandwidth*=0.5", NULL) && near(sag_value(node, "net.bandwidth", 0), 5e6) &&
          near(sag_seconds(node, "net.static.per_byte", 0), 0.36e-6 * 2.8 / 5),
          "net.bandwidth*=0.5 halves it again");
    sag_free(g);
}

static void comm_settings(void)
{
    SagGraph *g = ipsc();
    const SagUnit *node = sag_find_unit(g, "cube/node"), *cube = sag_find_unit(g, "cube");
    const SagUnit *link = sag_find_unit(g, "link"), *srm = sag_find_unit(g, "srm");
    check(sag_lookup(node, "net.load") == NULL && apply(g, "net.load=0.3", NULL),
          "net.load=0.3 is accepted");
    const SagParam *q = sag_lookup(node, "net.load");
    check(q && q->kind == SAG_COUNT && q->value == 0.3 && own_count(cube, SAG_COMM, "net.load") == 1,
          "net.load=0.3: the node sees it in the cube's comm component");
    check(sag_value(link, "net.load", 0) == 0.3 && sag_lookup(srm, "net.load") == NULL &&
          sag_form(srm, SAG_COMM) == SAG_VOID,
          "net.load goes to every network (the link too), not to units without one");
    check(near(sag_seconds(node, "net.static.per_byte", 0), 0.36e-6),
          "net.load leaves the per-byte times for the engine to scale");
    check(apply(g, "net.load=0.5", "net.load*=0.5", NULL) && sag_value(node, "net.load", 0) == 0.25 &&
          own_count(cube, SAG_COMM, "net.load") == 1,
          "net.load set again replaces it; *= scales it once it is there");
    check(apply(g, "comm.overlap=0.25", NULL) && sag_value(node, "comm.overlap", 0) == 0.25 &&
          apply(g, "comm.overlap=1", NULL) && sag_value(node, "comm.overlap", 0) == 1,
          "comm.overlap=F is what the node reads");
    sag_free(g);

    FILE *null = fopen("/dev/null", "w");
    int nerr = 0;
    g = one("comm", "net.load = 0.2", stderr);
    check(g && sag_value(sag_root(g), "net.load", 0) == 0.2, "a .sag file may give net.load");
    sag_free(g);
    SagGraph *bad = sag_load_string("bad.sag", "unit m {\n comm simple {\n  net.load = 1\n }\n}\n",
                                    null, &nerr);
    check(!bad && nerr == 1, "net.load = 1 in a file is an error");
    bad = sag_load_string("bad.sag", "unit m {\n comm simple {\n  comm.overlap = 2\n }\n}\n",
                          null, &nerr);
    check(!bad && nerr == 1, "comm.overlap = 2 in a file is an error");
    bad = sag_load_string("bad.sag", "unit m {\n processing simple {\n  net.load = 0.1\n }\n}\n",
                          null, &nerr);
    check(!bad && nerr == 1, "net.load belongs in the comm component");
    if (null)
        fclose(null);
}

static void named_params(void)
{
    SagGraph *g = ipsc();
    const SagUnit *node = sag_find_unit(g, "cube/node"), *srm = sag_find_unit(g, "srm");
    const SagUnit *link = sag_find_unit(g, "link");
    check(apply(g, "dcache.size=16KiB", NULL) && sag_value(node, "dcache.size", 0) == 16384,
          "dcache.size=16KiB");
    check(apply(g, "net.static.startup=50us", NULL) &&
          near(sag_seconds(node, "net.static.startup", 0), 50e-6) &&
          near(sag_seconds(link, "net.static.startup", 0), 50e-6) &&
          near(sag_seconds(node, "net.static.startup.short", 0), 75e-6),
          "net.static.startup=50us changes every definition, and only that name");
    check(apply(g, "op.dmul=2cycles", NULL) && near(sag_seconds(node, "op.dmul", 0), 2 / 40e6),
          "op.dmul=2cycles");
    const SagParam *q;
    check(apply(g, "op.fadd = 20 ns", NULL) && (q = sag_lookup(node, "op.fadd")) &&
          q->kind == SAG_TIME && near(q->value, 20e-9) && near(sag_seconds(srm, "op.fadd", 0), 20e-9),
          "op.fadd = 20 ns turns cycles into a time, in the node and the host");
    check(apply(g, "op.fadd=4 cycles", NULL) && (q = sag_lookup(srm, "op.fadd")) &&
          q->kind == SAG_CYCLES && q->clock_hz == 25e6 && near(sag_seconds(node, "op.fadd", 0), 4 / 40e6),
          "op.fadd=4 cycles takes each unit's clock");
    check(apply(g, "coll.broadcast=linear", NULL) &&
          strcmp(sag_lookup(node, "coll.broadcast")->keyword, "linear") == 0,
          "coll.broadcast=linear");
    check(apply(g, "net.topology=mesh", "dcache.replacement=lru", NULL) &&
          strcmp(sag_lookup(node, "net.topology")->keyword, "mesh") == 0 &&
          strcmp(sag_lookup(link, "net.topology")->keyword, "mesh") == 0,
          "keywords from the allowed set, every definition");
    check(apply(g, "cube/node/dcache.size=4KiB", "ipsc860/cube/net.static.per_hop=1us", NULL) &&
          sag_value(node, "dcache.size", 0) == 4096 &&
          near(sag_seconds(node, "net.static.per_hop", 0), 1e-6),
          "a unit path picks the unit");
    check(apply(g, "dcache.assoc=4", NULL) && sag_value(node, "dcache.assoc", 0) == 4,
          "counts are plain numbers");
    sag_free(g);

    g = ipsc();
    node = sag_find_unit(g, "cube/node");
    link = sag_find_unit(g, "link");
    check(apply(g, "net.static.startup*=2", NULL) &&
          near(sag_seconds(node, "net.static.startup", 0), 272e-6) &&
          near(sag_seconds(link, "net.static.startup", 0), 600e-6), "NAME*=K scales every definition");
    check(apply(g, "dcache.size*=2", "op.fdiv*=0.5", "dcache.assoc*=2", NULL) &&
          sag_value(node, "dcache.size", 0) == 16384 && near(sag_seconds(node, "op.fdiv", 0), 11 / 40e6) &&
          sag_value(node, "dcache.assoc", 0) == 4, "sizes, cycles and counts scale");
    check(sag_experiment(g, "net.static.per_hop=0s", NULL, 0) == 0 &&
          sag_seconds(node, "net.static.per_hop", 1) == 0, "a time may be 0; err may be NULL");
    sag_free(g);
}

static void experiment_errors(void)
{
    static const struct {
        const char *assignment, *message;
    } cases[] = {
        {"cpu.speed", "expected NAME=VALUE or NAME*=FACTOR, not 'cpu.speed'"},
        {"=2", "missing parameter name before '='"},
        {"op.fadd=", "missing value for 'op.fadd'"},
        {"Op.Fadd=1", "invalid parameter name 'Op.Fadd' (lower-case words joined by dots)"},
        {"cpu.sped=2", "unknown SAG parameter 'cpu.sped'; did you mean 'cpu.speed'?"},
        {"dcache.sise=16KiB", "unknown SAG parameter 'dcache.sise'; did you mean 'dcache.size'?"},
        {"net.lod=0.1", "unknown SAG parameter 'net.lod'; did you mean 'net.load'?"},
        {"no.such.thing=1",
         "unknown SAG parameter 'no.such.thing' (not an experiment, and not in the machine)"},
        {"cpu.speed=0", "'cpu.speed' takes a factor above 0"},
        {"cpu.speed=2GHz", "'cpu.speed' takes a factor (a number without a unit), not a frequency"},
        {"cpu.speed=fast", "'cpu.speed' takes a factor (a number without a unit), not a keyword"},
        {"cpu.speed=1e999", "bad value '1e999' for 'cpu.speed': out of range (at most "
                            "1.79769e+308 in seconds, hertz, bytes or bytes per second)"},
        {"net.bandwidth=0", "'net.bandwidth' takes a factor above 0"},
        {"net.bandwidth=3us", "'net.bandwidth' takes a rate, not a time"},
        {"net.bandwidth=1e305", "'net.bandwidth' must be a finite number"},
        {"net.load=1", "'net.load' must be below 1 (the network saturates at 1)"},
        {"net.load=1.5", "'net.load' must be below 1 (the network saturates at 1)"},
        {"net.load=-0.1", "bad value '-0.1' for 'net.load': negative value"},
        {"net.load=30%", "bad value '30%' for 'net.load': stray character '%' (0x25)"},
        {"comm.overlap=1.5", "'comm.overlap' is a fraction from 0 to 1"},
        {"comm.overlap=0.5s", "'comm.overlap' takes a fraction (a number without a unit), not a time"},
        {"comm.overlap*=2", "'comm.overlap' is not in the machine to scale; set it with comm.overlap=F"},
        {"dcache.size=16", "'dcache.size' takes a size, not a number without a unit"},
        {"dcache.size=16us", "'dcache.size' takes a size, not a time"},
        {"dcache.size=0B", "'dcache.size' takes a size above 0"},
        {"dcache.size=16KiBs",
         "bad value '16KiBs' for 'dcache.size': unknown unit 'KiBs' (see doc/sag.md for the units)"},
        {"op.fadd=3 cycles 4", "bad value '3 cycles 4' for 'op.fadd': unexpected '4' after the value"},
        {"op.fadd=2MB", "'op.fadd' takes a time or cycles, not a size"},
        {"net.static.startup=1e999s", "bad value '1e999s' for 'net.static.startup': out of "
                                      "range (at most 1.79769e+308 in seconds, hertz, bytes "
                                      "or bytes per second)"},
        {"net.topology=Mesh", "bad value 'Mesh' for 'net.topology': invalid value 'Mesh' (a number "
                              "with a unit, or a lower-case keyword)"},
        {"coll.broadcast=star", "unknown value 'star' for 'coll.broadcast' (one of: tree "
                                "recursive_doubling linear scatter_allgather)"},
        {"coll.broadcast=2", "'coll.broadcast' takes a keyword (one of: tree recursive_doubling "
                             "linear scatter_allgather), not a number without a unit"},
        {"coll.shift*=2", "'coll.shift' is a keyword; only numbers scale"},
        {"op.fadd*=0", "the factor of 'op.fadd*=' must be above 0"},
        {"op.fadd*=2us", "the factor of 'op.fadd*=' is a number without a unit, not a time"},
        {"cube/cpu.speed=2", "'cpu.speed' applies to the whole machine; write it without a unit path"},
        {"cube/nope/dcache.size=1KiB", "no unit 'cube/nope' in the machine (for 'cube/nope/dcache.size')"},
        {"cube/node/net.static.startup=1us",
         "unit 'cube/node' does not define 'net.static.startup'; it inherits it from 'cube'"},
        {"srm/dcache.size=1KiB", "unit 'srm' does not define 'dcache.size'"},
    };
    SagGraph *g = ipsc();
    char *before = write_to_string(g);
    int ok = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        int rc = sag_experiment(g, cases[i].assignment, err, sizeof err);
        if (rc != -1 || strcmp(err, cases[i].message) != 0) {
            printf("# %s: rc %d, message\n#   %s\n# expected\n#   %s\n", cases[i].assignment, rc,
                   err, cases[i].message);
            ok = 0;
        }
    }
    check(ok, "every refused experiment says why in one line");
    char *after = write_to_string(g);
    check(before && after && strcmp(before, after) == 0, "a refused experiment leaves the machine as it was");
    char small[8];
    check(sag_experiment(g, "cpu.sped=2", small, sizeof small) == -1 && strlen(small) == 7,
          "the reason is cut to the buffer");
    free(before);
    free(after);
    sag_free(g);
}

static void experiment_roundtrip(void)
{
    SagGraph *g = ipsc();
    int ok = apply(g, "cpu.speed=2", "net.bandwidth=2", "net.load=0.3", "comm.overlap=0.5",
                   "dcache.size=16KiB", "op.fadd=20ns", "coll.broadcast=linear",
                   "net.static.startup*=0.5", NULL);
    char *w1 = ok ? write_to_string(g) : NULL;
    SagGraph *g2 = w1 ? sag_load_string("written.sag", w1, stderr, NULL) : NULL;
    char *w2 = g2 ? write_to_string(g2) : NULL;
    check(w1 && w2 && strcmp(w1, w2) == 0, "a changed machine is written as a .sag that reads back");
    static const char *const names[] = {
        "cpu.clock", "cpu.peak.sp", "op.fadd", "op.fmul", "mem.fetch.hit", "dcache.size",
        "net.static.per_byte", "net.dynamic.per_byte", "net.bandwidth", "net.static.startup",
        "net.load", "comm.overlap", "io.per_byte",
    };
    const SagUnit *n1 = sag_find_unit(g, "cube/node"), *n2 = g2 ? sag_find_unit(g2, "cube/node") : NULL;
    int same = n2 != NULL;
    for (size_t i = 0; same && i < sizeof names / sizeof names[0]; i++) {
        const SagParam *a = sag_lookup(n1, names[i]), *b = sag_lookup(n2, names[i]);
        double sa = a->kind == SAG_TIME || a->kind == SAG_CYCLES ? sag_seconds(n1, names[i], -1)
                                                                 : sag_value(n1, names[i], -1);
        double sb = b->kind == SAG_TIME || b->kind == SAG_CYCLES ? sag_seconds(n2, names[i], -1)
                                                                 : sag_value(n2, names[i], -1);
        if (a->kind != b->kind || sa != sb) {
            printf("# %s: %g, read back %g\n", names[i], sa, sb);
            same = 0;
        }
    }
    check(same, "the node sees the same values in the machine read back");
    check(g2 && strcmp(sag_lookup(sag_find_unit(g2, "cube/node"), "coll.broadcast")->keyword,
                       "linear") == 0, "keywords survive the round trip");
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
    experiment_table();
    cpu_speed();
    net_bandwidth();
    comm_settings();
    named_params();
    experiment_errors();
    experiment_roundtrip();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
