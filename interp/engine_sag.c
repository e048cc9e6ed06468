/* engine_sag.c - the SAG parameters the engine reads from the node unit
 * once, in seconds and bytes, with their defaults. */
#include <config.h>

#include "engine_int.h"

/* ---- SAG parameters ---------------------------------------------------- */

static int keyword_is(const SagUnit *u, const char *name, const char *word)
{
    const SagParam *p = sag_lookup(u, name);
    return p && p->kind == SAG_KEYWORD && strcmp(p->keyword, word) == 0;
}

static int alg_of(const SagUnit *u, const char *name, int dflt)
{
    static const struct { const char *word; int alg; } algs[] = {
        {"linear", ALG_LINEAR}, {"recursive_doubling", ALG_RDOUBLING}, {"tree", ALG_TREE},
        {"ring", ALG_RING}, {"scatter_allgather", ALG_SCATTER_ALLGATHER},
        {"pairwise", ALG_PAIRWISE}, {"bruck", ALG_BRUCK},
    };
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++)
        if (keyword_is(u, name, algs[i].word))
            return algs[i].alg;
    return dflt;
}

/* Missing parameters fall back to documented defaults (doc/predict.md): an
 * operation one cycle, a library function twenty, no memory penalty. */
void en_read_params(Params *p, const SagUnit *n)
{
    double clock = sag_value(n, "cpu.clock", 1e9), cyc = 1.0 / clock;
    for (int k = 0; k < OPC_N; k++)
        p->op[k] = sag_seconds(n, opc_param[k], cyc);
    p->div_overlap = fmin(1, fmax(0, sag_value(n, "op.div.overlap", 0)));
    p->loop_setup = sag_seconds(n, "loop.setup", 0);
    p->loop_iter = sag_seconds(n, "loop.iter", 0);
    p->loop_step = sag_seconds(n, "loop.step", 0);
    p->cond_test = sag_seconds(n, "cond.test", 0);
    p->cond_taken = sag_seconds(n, "cond.taken", 0);
    p->call_ovhd = sag_seconds(n, "call.overhead", 0);
    p->call_arg = sag_seconds(n, "call.per_arg", 0);
    p->lib_default = 20 * cyc;
    p->fetch_hit = sag_seconds(n, "mem.fetch.hit", 0);
    p->fetch_miss = sag_seconds(n, "mem.fetch.miss", p->fetch_hit);
    p->store_hit = sag_seconds(n, "mem.store.hit", 0);
    p->store_miss = sag_seconds(n, "mem.store.miss", p->store_hit);
    p->dc_size = sag_value(n, "dcache.size", 0);
    p->dc_block = sag_value(n, "dcache.block", 32);
    double assoc = sag_value(n, "dcache.assoc", 1);
    /* effective capacity: conflicts take a share that falls with the ways;
       random replacement evicts live lines more often than LRU */
    double keep = assoc <= 1 ? 0.5 : 1.0 - 1.0 / (2.0 * assoc);
    if (keyword_is(n, "dcache.replacement", "random") && assoc > 1)
        keep = 1.0 - 1.0 / (assoc + 1.0);
    p->dc_eff = p->dc_size * keep;
    p->short_max = sag_value(n, "net.short_max", 0);
    p->st_start = sag_seconds(n, "net.static.startup", 0);
    p->st_start_s = sag_seconds(n, "net.static.startup.short", p->st_start);
    p->st_pb = sag_seconds(n, "net.static.per_byte", 0);
    if (p->st_pb == 0 && sag_value(n, "net.bandwidth", 0) > 0)
        p->st_pb = 1.0 / sag_value(n, "net.bandwidth", 0);
    p->st_ph = sag_seconds(n, "net.static.per_hop", 0);
    p->st_recv = sag_seconds(n, "net.static.receive", 0);
    p->dy_start = sag_seconds(n, "net.dynamic.startup", p->st_start);
    p->dy_start_s = sag_seconds(n, "net.dynamic.startup.short", p->st_start_s);
    p->dy_pb = sag_seconds(n, "net.dynamic.per_byte", p->st_pb);
    p->dy_ph = sag_seconds(n, "net.dynamic.per_hop", p->st_ph);
    p->dy_recv = sag_seconds(n, "net.dynamic.receive", p->st_recv);
    p->recv_early = keyword_is(n, "net.receive.post", "early");
    p->dy_buffer = sag_value(n, "net.dynamic.buffer", 1e18);
    /* a background load rho on the channels (--set net.load=rho): a loaded
       channel carries a message 1/(1 - rho) slower, the growth of an M/M/1
       queue's time in the system, steep as rho nears 1 (doc/sag.md) */
    double rho = sag_value(n, "net.load", 0);
    if (rho > 0 && rho < 1) {
        double slow = 1.0 / (1.0 - rho);
        p->st_pb *= slow;
        p->dy_pb *= slow;
        p->st_ph *= slow;
        p->dy_ph *= slow;
    }
    p->sync = sag_seconds(n, "sync.overhead", 0);
    /* the collectives: an algorithm per collective, another above a
       message size where the library switches (absent: no switch) */
    p->bcast_alg = alg_of(n, "coll.broadcast", ALG_TREE);
    p->red_alg = alg_of(n, "coll.reduction", ALG_TREE);
    p->bcast_large = alg_of(n, "coll.broadcast.large", p->bcast_alg);
    p->red_large = alg_of(n, "coll.reduction.large", p->red_alg);
    p->bcast_switch = sag_value(n, "coll.broadcast.switch", 1e300);
    p->red_switch = sag_value(n, "coll.reduction.switch", 1e300);
    p->a2a_alg = alg_of(n, "coll.alltoall", ALG_LINEAR);
    p->topo = keyword_is(n, "net.topology", "hypercube") ? TOPO_HYPERCUBE
            : keyword_is(n, "net.topology", "ring") ? TOPO_RING
            : keyword_is(n, "net.topology", "mesh") || keyword_is(n, "net.topology", "torus")
              ? TOPO_MESH : TOPO_FLAT;
    /* where each grid position runs: by default Gray-coded on a hypercube
       (grid neighbours one hop apart), rank = node elsewhere; libhpfrt
       follows HPFRT_PLACEMENT (doc/sag.md) */
    p->placement = keyword_is(n, "net.placement", "gray") ? HPFMAP_GRAY
                 : keyword_is(n, "net.placement", "linear") ? HPFMAP_LINEAR
                 : p->topo == TOPO_HYPERCUBE ? HPFMAP_GRAY : HPFMAP_LINEAR;
    /* the messages of a round share links on a hypercube (e-cube routes)
       and on a bus (one medium); net.contention = off takes it away */
    p->node_procs = (int)sag_value(n, "net.node_procs", 1);
    if (p->topo != TOPO_FLAT || keyword_is(n, "net.topology", "bus"))
        p->node_procs = 1;        /* (a node's link is a switched cluster's) */
    p->contend = (p->topo == TOPO_HYPERCUBE || keyword_is(n, "net.topology", "bus") ||
                  p->node_procs > 1) && !keyword_is(n, "net.contention", "off");
    p->nlev = 0;
    for (int l = 1; l <= 3; l++) {
        char name[64];
        snprintf(name, sizeof name, "cache.l%d.size", l);
        double size = sag_value(n, name, 0);
        snprintf(name, sizeof name, "cache.l%d.bandwidth", l);
        double rd = sag_value(n, name, 0);
        if (size <= 0 || rd <= 0)
            break;
        snprintf(name, sizeof name, "cache.l%d.bandwidth.write", l);
        p->lev_wr[p->nlev] = sag_value(n, name, rd);
        snprintf(name, sizeof name, "cache.l%d.shared", l);
        p->lev_shared[p->nlev] = fmax(1, sag_value(n, name, 1));
        snprintf(name, sizeof name, "cache.l%d.fetch", l);
        p->lev_fetch[p->nlev] = sag_seconds(n, name, -1);
        snprintf(name, sizeof name, "cache.l%d.store", l);
        p->lev_store[p->nlev] = sag_seconds(n, name, p->lev_fetch[p->nlev]);
        p->lev_size[p->nlev] = size;
        p->lev_rd[p->nlev++] = rd;
    }
    p->mem_rd = sag_value(n, "mem.bandwidth", 0);
    p->mem_wr = sag_value(n, "mem.bandwidth.write", p->mem_rd);
    p->mem_node = sag_value(n, "mem.bandwidth.node", 0);
    if (p->mem_rd <= 0)
        p->nlev = 0;
    p->io_start = sag_seconds(n, "io.startup", 0);
    p->io_fmt = sag_seconds(n, "io.format", 0);
    p->io_fmt_first = sag_seconds(n, "io.format.first", 0);
    p->io_pb = sag_seconds(n, "io.per_byte", 0);
    if (p->io_pb == 0 && sag_value(n, "io.bandwidth", 0) > 0)
        p->io_pb = 1.0 / sag_value(n, "io.bandwidth", 0);
    /* reads apart, where the SAG measures them (hpfcalibrate: pread) */
    p->io_rd_start = sag_seconds(n, "io.read.startup", p->io_start);
    p->io_rd_pb = sag_seconds(n, "io.read.per_byte", p->io_pb);
    /* vectorized loops: the operations measured there (vec.op.dadd ...),
       the others scaled as the REAL(8) add is */
    p->vec_iter = sag_seconds(n, "vec.iter", 0);
    p->vec_width = p->vec_iter > 0 ? sag_value(n, "vec.width", 16) : 0;
    double vadd = sag_seconds(n, "vec.op.dadd", -1);
    p->vec_ratio = vadd >= 0 && p->op[OPC_DADD] > 0 ? vadd / p->op[OPC_DADD] : 1;
    for (int k = 0; k < OPC_N; k++) {
        char name[64];
        snprintf(name, sizeof name, "vec.%s", opc_param[k]);
        double v = sag_seconds(n, name, -1);
        p->vec_op[k] = v >= 0 ? v : p->op[k] * p->vec_ratio;
    }
    p->vec_lib_have = 0;
    for (int i = 0; i < AAG_NVEC_MATH; i++) {
        char name[64];
        snprintf(name, sizeof name, "vec.%s", aag_vec_math[i]);
        p->vec_lib[i] = sag_seconds(n, name, -1);
        if (p->vec_lib[i] >= 0)
            p->vec_lib_have |= 1u << i;
    }
    p->vec_fetch = sag_seconds(n, "vec.fetch", p->fetch_hit * p->vec_ratio);
    p->vec_store = sag_seconds(n, "vec.store", p->store_hit * p->vec_ratio);
    p->rt_region = sag_seconds(n, "rt.region", 0);
    p->rt_seg = sag_seconds(n, "rt.seg", 0);
    p->rt_coll = sag_seconds(n, "rt.coll", 0);
    p->rt_coll_self = sag_seconds(n, "rt.coll.self", 0);
    p->rt_loop = sag_seconds(n, "rt.loop", 0);
    p->rt_gather = sag_seconds(n, "rt.gather", 0);
    p->rt_gather_elem = sag_seconds(n, "rt.gather.elem", 0);
    p->rt_gather_remote = sag_seconds(n, "rt.gather.remote", 0);
    p->rt_kept = sag_seconds(n, "rt.gather.kept", 0);
    p->rt_kept_elem = sag_seconds(n, "rt.gather.kept.elem", 0);
    p->rt_kept_remote = sag_seconds(n, "rt.gather.kept.remote", 0);
    p->rt_shift = sag_seconds(n, "rt.shift", 0);
    p->rt_shift_run = sag_seconds(n, "rt.shift.run", 0);
    p->rt_start = sag_seconds(n, "rt.start", 0);
    p->page = sag_value(n, "mem.page", 4096);
    p->page_first = sag_seconds(n, "mem.page.first", 0);
    p->alloc = sag_seconds(n, "mem.alloc", 0);
    p->prefetch = sag_value(n, "mem.prefetch.stride", 0);
    p->red_sum = sag_seconds(n, "red.sum", 0);
    p->red_prod = sag_seconds(n, "red.prod", p->red_sum);   /* absent: as a sum's */
    p->red_max = sag_seconds(n, "red.max", 0);
    p->red_window = sag_value(n, "red.window", 0);
    p->jitter = sag_value(n, "comm.jitter", 0);
    p->jitter_tau = sag_seconds(n, "comm.jitter.interval", 30e-6);
    p->first_red = sag_seconds(n, "coll.first.reduction", 0);
    p->first_bcast = sag_seconds(n, "coll.first.broadcast", 0);
}

const SagUnit *engine_node_unit(const SagGraph *sag)
{
    for (int i = 0; i < sag_nunits(sag); i++)
        if (sag_unit_count(sag_unit(sag, i)) > 1)
            return sag_unit(sag, i);
    for (int i = 0; i < sag_nunits(sag); i++) {
        const SagUnit *u = sag_unit(sag, i);
        for (int k = 0; k < sag_nparams(u, SAG_PROCESSING); k++)
            if (strcmp(sag_param(u, SAG_PROCESSING, k)->name, "cpu.clock") == 0)
                return u;
    }
    return sag_root(sag);
}
