/* engine_net.c - the network for the engine: topologies, hops and
 * embedding, processor grids and templates, and the time of point-to-point
 * messages and of rounds of them (exchange). */
#include <config.h>

#include "engine_int.h"

/* ---- the network ------------------------------------------------------- */

int engine_hops(unsigned a, unsigned b)
{
    return __builtin_popcount(a ^ b);
}

void engine_cube_contention(int dims, int n, const int *src, const int *dst, int *load,
                            double *factor)
{
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++) {
            /* pass 0 counts the messages on each directed link (node, dim),
               pass 1 takes each message's most loaded link, pass 2 clears */
            unsigned c = (unsigned)src[i], t = (unsigned)dst[i];
            int most = 1;
            for (int d = 0; d < dims; d++)
                if (((c ^ t) >> d) & 1) {
                    int *l = &load[(size_t)c * (size_t)dims + (size_t)d];
                    if (pass == 0)
                        (*l)++;
                    else if (pass == 1 && *l > most)
                        most = *l;
                    else if (pass == 2)
                        *l = 0;
                    c ^= 1u << d;
                }
            if (pass == 1)
                factor[i] = most;
        }
}

void engine_node_contention(int k, int n, const int *src, const int *dst, int *load,
                            double *factor)
{
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++) {
            int a = src[i] / k, b = dst[i] / k;
            if (a == b) {
                factor[i] = 1;
                continue;
            }
            int *up = &load[2 * a], *down = &load[2 * b + 1];
            if (pass == 0) {
                (*up)++;
                (*down)++;
            } else if (pass == 1) {
                factor[i] = *up > *down ? *up : *down;
            } else {
                *up = *down = 0;
            }
        }
}

/* Link contention of a round of messages (dst[p] >= 0, bytes[p] > 0),
 * where the topology has shared links and the processors are not in
 * classes: on a hypercube the messages sharing a link of their e-cube
 * routes, on a switched cluster of net.node_procs processes a node those
 * sharing a node's link, on a bus all the round's messages, share its
 * bandwidth, so that each message's bytes x per_byte takes factor[p]
 * times as long.
 * Returns 0 when nothing is shared (factor untouched). */
int en_contention(Eng *e, const int *dst, const double *bytes, double *factor)
{
    if (!e->pr.contend || e->ec || e->P < 2)
        return 0;
    int n = 0, *ps = NULL, *qs = NULL;
    for (int p = 0; p < e->P; p++)
        n += dst[p] >= 0 && bytes[p] > 0;
    if (n < 2)
        return 0;
    if (e->pr.node_procs <= 1 && e->pr.topo != TOPO_HYPERCUBE) {   /* a bus: one medium */
        for (int p = 0; p < e->P; p++)
            factor[p] = n;
        return 1;
    }
    int dims = bits_for(e->P);
    if (!e->link_load)
        /* (routes pass nodes up to 2^dims - 1 when P is not a power of two;
           a cluster has at most P nodes, two links each) */
        e->link_load = xcalloc(((size_t)1 << dims) * (size_t)(dims ? dims : 1) + 2 * (size_t)e->P,
                               sizeof *e->link_load);
    /* (n <= P: the pool's vectors, not an allocation every round) */
    ps = buf_raw(e);
    qs = buf_raw(e);
    double *f = buf_raw(e);
    n = 0;
    for (int p = 0; p < e->P; p++)
        if (dst[p] >= 0 && bytes[p] > 0) {
            ps[n] = p;
            qs[n++] = dst[p];
        }
    if (e->pr.node_procs > 1)
        engine_node_contention(e->pr.node_procs, n, ps, qs, e->link_load, f);
    else
        engine_cube_contention(dims, n, ps, qs, e->link_load, f);
    int shared = 0;
    for (int p = 0; p < e->P; p++)
        factor[p] = 1;
    for (int i = 0; i < n; i++) {
        factor[ps[i]] = f[i];
        shared |= f[i] > 1;
    }
    buf_put(e, ps);
    buf_put(e, qs);
    buf_put(e, f);
    return shared;
}

double engine_msg_time(const SagUnit *node, double bytes, int hops)
{
    Params p;
    en_read_params(&p, node);
    return startup(&p, bytes, 0) + bytes * p.st_pb + hops * p.st_ph;
}

/* Hops between the processes of ranks a and b: a process runs on the node
 * of its rank (where a grid position runs is hpfmap_rank's placement). */
int en_rank_hops(const Eng *e, int a, int b)
{
    if (a == b)
        return 0;
    switch (e->pr.topo) {
    case TOPO_HYPERCUBE: return engine_hops((unsigned)a, (unsigned)b);
    case TOPO_RING: {
        int d = abs(a - b);
        return d < e->NP - d ? d : e->NP - d;
    }
    case TOPO_MESH: {
        int side = (int)ceil(sqrt((double)e->NP));
        return abs(a % side - b % side) + abs(a / side - b / side);
    }
    default: return 1;
    }
}

/* When processor p receives `bytes` from q (the en_exchange() model): its
 * clock after the receive. */
static double recv_finish(const Eng *e, int p, int q, double bytes)
{
    const Params *pr = &e->pr;
    double f = 1.0 - e->overlap;
    double arrive = e->clock[q] + f * (startup(pr, bytes, 0) + bytes * pr->st_pb) + pr->st_ph;
    if (arrive <= e->clock[p])
        return e->clock[p] + pr->dy_recv + f * bytes * (pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0);
    return arrive + pr->st_recv;
}

/* With classes, the processors of a class talk to partners in several
 * classes: the class follows its slowest member, so its partner is the one
 * it would finish the receive of `bytes` latest with. Class p's members
 * have coordinates in dimension d in an interval; their partners'
 * coordinates along d are the members' moved by `delta` (or those whose
 * part of the rank, hpfmap_place, has the bits `flip` flipped), round the
 * dimension's end when wrap is set. Returns
 * that partner's class, or -1 when no member has a partner (ok(c): the
 * coordinate c can be a partner). */
int en_latest_partner(const Eng *e, int p, int d, int delta, int flip, int wrap,
                          int (*ok)(const void *, int), const void *arg, double bytes)
{
    int co[MAX_RANK];
    hpfmap_coords(rank_of(e, p), e->ec->rank, e->ec->shape, e->pr.placement, co);
    int i = e->of[d][co[d]], best = -1;
    int lo = e->ilo[d][i], hi = e->ihi[d][i], n = e->ec->shape[d];
    int gray = hpfmap_placement(e->pr.placement, e->ec->rank, e->ec->shape);
    for (int c = lo; c <= hi; c++) {
        /* a flipped bit of the rank is one of the placed coordinate */
        int cn = flip ? hpfmap_unplace(hpfmap_place(c, gray) ^ flip, gray) : c + delta;
        int moved = !flip;
        if (wrap && !flip && (cn < 0 || cn >= n)) {
            cn = (cn % n + n) % n;
            moved = 0;
        }
        if (cn < 0 || cn >= n || (ok && !ok(arg, cn)))
            continue;
        int q = p + (e->of[d][cn] - i) * e->stride[d];
        if (best < 0 || recv_finish(e, p, q, bytes) > recv_finish(e, p, best, bytes))
            best = q;
        if (moved)                /* the rest of cn's interval: the same class */
            c = e->ihi[d][e->of[d][cn]] - delta;
    }
    return best;
}

/* ---- grids and templates ---------------------------------------------- */

/* The shape of a processor arrangement (NULL: the default 1-D one) on
 * NP processors; returns its rank. */
int en_grid_shape(Eng *e, const SpProcs *pr, int *shape)
{
    int rank = pr ? pr->rank : 1;
    long decl[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        long long v = 0;
        decl[d] = pr && pr->ext[d] && fi_eval_int(e->fi, pr->ext[d], &v) ? (long)v : 0;
    }
    hpfmap_grid_shape(e->NP, rank, pr ? decl : NULL, shape);
    return rank;
}

static Grid *grid_of(Eng *e, const SpProcs *pr)
{
    for (int i = 0; i < e->grids.n; i++) {
        Grid *g = e->grids.v[i];
        if (g->procs == pr)
            return g;
    }
    Grid *g = xcalloc(1, sizeof *g);
    g->procs = pr;
    g->rank = en_grid_shape(e, pr, g->shape);
    /* the coordinates of the interpreted processors (representatives) */
    g->coords = xmalloc((size_t)e->P * (size_t)g->rank * sizeof *g->coords);
    for (int p = 0; p < e->P; p++)
        hpfmap_coords(rank_of(e, p), g->rank, g->shape, e->pr.placement, g->coords + (size_t)p * (size_t)g->rank);
    vec_push(NULL, &e->grids, g);
    return g;
}

long long en_eval_int(Eng *e, const Node *n, long long dflt, int line, const char *what)
{
    long long v;
    if (!n)
        return dflt;
    if (fi_eval_int(e->fi, n, &v))
        return v;
    fi_missing(e->fi, n, line, what);
    e->failed = 1;
    return dflt;
}

Tmpl *en_tmpl_of(Eng *e, const SpTmpl *t)
{
    for (int i = 0; i < e->tmpls.n; i++) {
        Tmpl *m = e->tmpls.v[i];
        if (m->t == t)
            return m;
    }
    Tmpl *m = xcalloc(1, sizeof *m);
    m->t = t;
    m->grid = grid_of(e, t->onto);
    for (int d = 0; d < t->rank; d++) {
        long long lo = en_eval_int(e, t->lo[d], 1, 0, "template bound");
        long long hi = en_eval_int(e, t->hi[d], lo, 0, "template bound");
        long long k = t->k[d] ? en_eval_int(e, t->k[d], 1, 0, "distribution block") : 0;
        int gd = t->gdim[d];
        int np = gd >= 0 && gd < m->grid->rank ? m->grid->shape[gd] : 1;
        int fmt = gd >= 0 ? t->fmt[d] : HPFMAP_STAR;
        if (hpfmap_dim_init(&m->d[d], fmt, (long)k, (long)lo, (long)(hi - lo + 1 > 0 ? hi - lo + 1 : 0),
                            np) != 0)
            hpfmap_dim_init(&m->d[d], HPFMAP_STAR, 0, (long)lo, 0, 1);
    }
    vec_push(NULL, &e->tmpls, m);
    return m;
}

Grid *en_arr_grid(Eng *e, const SpArr *a)
{
    return a && a->tmpl ? en_tmpl_of(e, a->tmpl)->grid : NULL;
}

/* The template cell of subscript s of array dimension d. */
/* Array dimension d sits in template cell ca*i + cb. */
void en_align_coef(Eng *e, const SpArr *a, int d, long long *ca, long long *cb)
{
    *ca = a->ca[d];
    *cb = a->cb[d];
    if (!a->cknown[d]) {
        *ca = en_eval_int(e, a->alpha[d], 1, 0, "alignment");
        *cb = en_eval_int(e, a->beta[d], 0, 0, "alignment");
    }
}

long en_cell_of(Eng *e, const SpArr *a, int d, long long s)
{
    long long ca, cb;
    en_align_coef(e, a, d, &ca, &cb);
    return (long)(ca * s + cb);
}

/* Grid coordinates of the owners of an element: coord[gd] = -1 where the
 * array is replicated (every coordinate holds it). */
void en_owner_coords(Eng *e, const SpArr *a, const long long *sub, int *coord)
{
    Tmpl *m = en_tmpl_of(e, a->tmpl);
    for (int gd = 0; gd < m->grid->rank; gd++)
        coord[gd] = -1;
    int aligned[MAX_RANK] = {0};
    for (int d = 0; d < a->rank; d++) {
        int t = a->tdim[d];
        if (t < 0)
            continue;
        aligned[t] = 1;
        int gd = a->tmpl->gdim[t];
        if (gd >= 0)
            coord[gd] = owner_of(e, &m->d[t], en_cell_of(e, a, d, sub[d]));
    }
    for (int t = 0; t < a->tmpl->rank; t++) {
        int gd = a->tmpl->gdim[t];
        if (aligned[t] || gd < 0 || !a->fix[t])
            continue;
        coord[gd] = owner_of(e, &m->d[t], (long)en_eval_int(e, a->fix[t], 1, 0, "alignment"));
    }
}

/* Elements of a held on processor p (the most any processor holds when p
 * < 0), for message and cache sizes. */
double en_local_elems(Eng *e, const SpArr *a, int p, int d_skip)
{
    double n = 1;
    Grid *g = en_arr_grid(e, a);
    int coords[MAX_RANK] = {0};
    if (g && p >= 0)
        memcpy(coords, coords_of(g, p), (size_t)g->rank * sizeof *coords);
    for (int d = 0; d < a->rank; d++) {
        if (d == d_skip)
            continue;
        int t = a->tmpl ? a->tdim[d] : -1;
        if (t >= 0 && a->tmpl->gdim[t] >= 0) {
            Tmpl *m = en_tmpl_of(e, a->tmpl);
            n *= p >= 0 ? (double)hpfmap_count(&m->d[t], coords[a->tmpl->gdim[t]])
                        : (double)hpfmap_count_max(&m->d[t]);
        } else {
            long long lo = en_eval_int(e, a->lo[d], 1, 0, "array bound");
            long long hi = en_eval_int(e, a->hi[d], lo, 0, "array bound");
            n *= hi >= lo ? (double)(hi - lo + 1) : 0;
        }
    }
    return n;
}

/* ---- point-to-point messages -------------------------------------------- */

/* One round in which processor p sends at most one message (bytes[p] to
 * dst[p]) and receives at most one (from src[p]); hops[p] for the message
 * p receives. The sends go out at each sender's clock; a message that
 * arrived before its receive was posted went to a dynamic (system) buffer and
 * is copied out, one that arrives later is waited for in the posted
 * (static) buffer; one larger than the dynamic buffer waits for its
 * receive (rendezvous). Traced, the messages are numbered and each send,
 * wait and receive is an event. */
/* Whether time a is not after time b: a message that arrives as its
 * receive is posted arrived, a receiver ready as its sender sends was
 * ready. Equal times (a ring shift, every processor alike) come out of
 * different sums, which round differently: within a picosecond a second
 * they are taken as equal, so that the model's decisions do not depend on
 * rounding (nor, then, on how far the clocks are from 0: a steady state
 * extrapolated repeats exactly what an interpreted iteration does). */
static inline int not_after(double a, double b)
{
    return a <= b + 1e-12 * fabs(b) + 1e-15;
}

void en_exchange(Eng *e, Aau *a, const int *dst, const int *src, const double *bytes,
                     const int *hops)
{
    const Params *pr = &e->pr;
    double f = 1.0 - e->overlap;
    double *sent = e->v1;
    /* the sums kept in registers; traced, each charge is recorded too, the
       messages numbered */
    double sw = a->m_sum[M_WAIT], sc = a->m_sum[M_COMM], so = a->m_sum[M_OVHD];
    long *msg = e->tr ? buf_get(e) : NULL;
    double *fac = buf_get(e);
    if (!en_contention(e, dst, bytes, fac)) {
        buf_put(e, fac);
        fac = NULL;
    }
    for (int p = 0; p < e->P; p++)
        sent[p] = e->clock[p];
    /* with net.receive.post = early a processor's receive is posted as it
       enters the round (MPI_Sendrecv, MPI's collectives), before its own
       send */
    double *post = pr->recv_early ? buf_get(e) : NULL;
    if (post)
        memcpy(post, e->clock, (size_t)e->P * sizeof *post);
    /* a rendezvous send starts when its receiver is ready */
    for (int p = 0; p < e->P; p++)
        if (dst[p] >= 0 && bytes[p] > pr->dy_buffer && !not_after(e->clock[dst[p]], sent[p])) {
            charge_to(e, &sw, M_WAIT, p, e->clock[dst[p]] - sent[p]);
            if (msg)
                en_record(e, a, TR_WAIT, p, sent[p], e->clock[p], -1, -1, 0);
            sent[p] = e->clock[p];
        }
    for (int p = 0; p < e->P; p++)
        if (dst[p] >= 0) {
            charge_to(e, &sc, M_COMM, p,
                      f * (startup(pr, bytes[p], 0) + bytes[p] * pr->st_pb * (fac ? fac[p] : 1)));
            if (msg) {
                msg[p] = trace_message(e->tr);
                en_record(e, a, TR_SEND, p, sent[p], e->clock[p], dst[p], msg[p], bytes[p]);
            }
        }
    for (int p = 0; p < e->P; p++) {
        int q = src[p];
        if (q < 0)
            continue;
        double b = bytes[q];
        double arrive = sent[q] + f * (startup(pr, b, 0) + b * pr->st_pb * (fac ? fac[q] : 1)) +
                        hops[p] * pr->st_ph;
        double r0 = e->clock[p];
        if (not_after(arrive, post ? post[p] : e->clock[p])) {
            /* arrived before its receive was posted: out of MPI's buffer */
            charge_to(e, &so, M_OVHD, p, pr->dy_recv);
            charge_to(e, &sc, M_COMM, p, f * b * (pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0));
        } else {
            if (!not_after(arrive, e->clock[p])) {
                charge_to(e, &sw, M_WAIT, p, arrive - e->clock[p]);
                if (msg)
                    en_record(e, a, TR_WAIT, p, r0, e->clock[p], -1, -1, 0);
            }
            r0 = e->clock[p];
            charge_to(e, &so, M_OVHD, p, pr->st_recv);
        }
        if (msg)
            en_record(e, a, TR_RECV, p, r0, e->clock[p], q, msg[q], b);
    }
    a->m_sum[M_WAIT] = sw;
    a->m_sum[M_COMM] = sc;
    a->m_sum[M_OVHD] = so;
    if (msg)
        buf_put(e, msg);
    if (fac)
        buf_put(e, fac);
    if (post)
        buf_put(e, post);
}


/* en_exchange() of a round whose pairs agree (dst[p] = q exactly when
 * src[q] = p): only the processors that send or receive are visited, in
 * the order en_exchange() visits them, with the same operations. */
static inline __attribute__((always_inline)) void
exchange_round_with(Eng *e, Aau *a, const Round *r, const double *cnt)
{
    const Params *pr = &e->pr;
    double *sent = e->v1, *clock = e->clock, *ex = e->ex;
    double *aw = e->acc[M_WAIT], *ac = e->acc[M_COMM], *ao = e->acc[M_OVHD];
    double sw = a->m_sum[M_WAIT], sc = a->m_sum[M_COMM], so = a->m_sum[M_OVHD];
    const int *snd = r->snd, *rcv = r->rcv, *dst = r->dst, *src = r->src;
    const double *bytes = r->bytes, *send_t = r->send_t, *hop_t = r->hop_t, *dyn_t = r->dyn_t;
    int ns = r->ns, nr = r->nr;
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        sent[p] = clock[p];
    }
    /* net.receive.post = early: each receive posted as the round starts */
    double *post = pr->recv_early ? buf_get(e) : NULL;
    for (int i = 0; post && i < nr; i++)
        post[rcv[i]] = clock[rcv[i]];
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        if (bytes[p] > pr->dy_buffer && !not_after(clock[dst[p]], sent[p])) {
            add_charge(clock, aw, &ex[p], &sw, cnt, p, clock[dst[p]] - sent[p]);
            sent[p] = clock[p];
        }
    }
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        add_charge(clock, ac, &ex[p], &sc, cnt, p, send_t[p]);
    }
    for (int i = 0; i < nr; i++) {
        int p = rcv[i], q = src[p];
        double arrive = sent[q] + send_t[q] + hop_t[p];
        if (not_after(arrive, post ? post[p] : clock[p])) {
            add_charge(clock, ao, &ex[p], &so, cnt, p, pr->dy_recv);
            add_charge(clock, ac, &ex[p], &sc, cnt, p, dyn_t[p]);
        } else {
            if (!not_after(arrive, clock[p]))
                add_charge(clock, aw, &ex[p], &sw, cnt, p, arrive - clock[p]);
            add_charge(clock, ao, &ex[p], &so, cnt, p, pr->st_recv);
        }
    }
    if (post)
        buf_put(e, post);
    a->m_sum[M_WAIT] = sw;
    a->m_sum[M_COMM] = sc;
    a->m_sum[M_OVHD] = so;
}

void en_exchange_round(Eng *e, Aau *a, const Round *r)
{
    if (e->tr) {
        /* traced: en_exchange() numbers and records the messages (the round's
           vectors are whole: by processor, -1 or 0 where it takes no part) */
        en_exchange(e, a, r->dst, r->src, r->bytes, r->hops);
        return;
    }
    if (e->cnt)
        exchange_round_with(e, a, r, e->cnt);
    else
        exchange_round_with(e, a, r, NULL);
}

/* All processors wait for the last one (a synchronizing collective). */
double en_sync_all(Eng *e, Aau *a)
{
    double mx = 0;
    for (int p = 0; p < e->P; p++)
        if (e->clock[p] > mx)
            mx = e->clock[p];
    if (e->tr) {
        /* traced: charge() records each wait */
        for (int p = 0; p < e->P; p++)
            charge(e, a, M_WAIT, p, mx - e->clock[p]);
        return mx;
    }
    double sw = a->m_sum[M_WAIT], *clock = e->clock, *aw = e->acc[M_WAIT], *ex = e->ex;
    const double *cnt = e->cnt;
    for (int p = 0; p < e->P; p++)
        add_charge(clock, aw, &ex[p], &sw, cnt, p, mx - clock[p]);
    a->m_sum[M_WAIT] = sw;
    return mx;
}

/* A round of a collective: the exchange of its messages (dst, src, bytes
 * and hops taken from buf_get, given back here), each receiver then
 * combining what it got (comb, 0 for none). */
static void exchange_done(Eng *e, Aau *a, int *dst, int *src, double *b, int *hops, double comb)
{
    en_exchange(e, a, dst, src, b, hops);
    if (comb > 0)
        for (int p = 0; p < e->P; p++)
            if (src[p] >= 0)
                charge(e, a, M_COMP, p, comb);
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, b);
}

/* One round of messages between ranks (no classes): rank r sends
 * bytes(r) to to(r) and receives from from(r), -1 for none; the rounds of
 * the ring and scatter algorithms and of the all-to-all. */
typedef struct {
    int kind;                     /* what the round is: RR_* */
    long s;                       /* its distance (or a bit) */
    double bytes;                 /* a message's size (a block's for scatters) */
} RankRound;
enum { RR_AHEAD, RR_SCATTER };

static void rank_round(Eng *e, Aau *a, const RankRound *k, int root, double comb)
{
    int NP = e->NP;
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *b = buf_get(e);
    for (int p = 0; p < NP; p++)
        dst[p] = src[p] = -1;
    for (int p = 0; p < NP; p++) {
        long r = (p - root + NP) % NP, to = -1;
        switch (k->kind) {
        case RR_AHEAD:            /* to the rank s ahead (1: round the ring) */
            to = (r + k->s) % NP;
            b[p] = k->bytes;
            break;
        case RR_SCATTER:          /* binomial: r (a multiple of 2s) sends r + s the
                                     blocks of r + s .. r + 2s - 1 */
            if (r % (2 * k->s) == 0 && r + k->s < NP) {
                to = r + k->s;
                long n = NP - to < k->s ? NP - to : k->s;
                b[p] = k->bytes * (double)n;
            }
            break;
        }
        if (to < 0 || to == r)
            continue;
        int q = (int)((to + root) % NP);
        dst[p] = q;
        src[q] = p;
        hops[q] = en_rank_hops(e, p, q);
    }
    exchange_done(e, a, dst, src, b, hops, comb);
}

/* The rounds of a ring allgather of NP blocks of `block` bytes. */
static void ring_allgather(Eng *e, Aau *a, double block)
{
    for (int k = 1; k < e->NP; k++)
        rank_round(e, a, &(RankRound){RR_AHEAD, 1, block}, 0, 0);
}

/* The all-to-all of `each` bytes to every other processor that starts a
 * gather or scatter (the counts), by coll.alltoall: linear (everyone waits
 * for the last, then sends its P-1 messages one after another and receives
 * the P-1 the others sent it), pairwise
 * (P-1 rounds, to the rank k ahead in round k) or bruck (log2 P rounds, to
 * the rank 2^k ahead, the blocks whose index has bit k). No classes. */
void en_alltoall(Eng *e, Aau *a, double each)
{
    int NP = e->NP;
    if (NP == 1)
        return;
    if (e->pr.a2a_alg == ALG_PAIRWISE) {
        for (long k = 1; k < NP; k++)
            rank_round(e, a, &(RankRound){RR_AHEAD, k, each}, 0, 0);
    } else if (e->pr.a2a_alg == ALG_BRUCK) {
        for (long s = 1; s < NP; s <<= 1) {
            long n = 0;
            for (long i = 0; i < NP; i++)
                n += (i & s) != 0;
            rank_round(e, a, &(RankRound){RR_AHEAD, s, each * (double)n}, 0, 0);
        }
    } else {
        const Params *pr = &e->pr;
        en_sync_all(e, a);
        double t = (double)(NP - 1) * (startup(pr, each, 0) + each * pr->st_pb);
        en_charge_all(e, a, M_COMM, (1 - e->overlap) * t, NULL);
        /* and the P-1 messages the others sent it, each received as en_exchange()
           receives one that has arrived: net.static.receive */
        en_charge_all(e, a, M_OVHD, (double)(NP - 1) * pr->st_recv, NULL);
    }
}

/* Broadcast of `bytes` from root by the SAG's algorithm for that size. */
void en_broadcast(Eng *e, Aau *a, int root, double bytes)
{
    int NP = e->NP;
    if (NP == 1)
        return;
    int alg = bytes > e->pr.bcast_switch ? e->pr.bcast_large : e->pr.bcast_alg;
    if (alg == ALG_SCATTER_ALLGATHER) {
        /* van de Geijn's: the root's message scattered in NP blocks down a
           binomial tree, then gathered by everyone round a ring (no
           classes: see classes_apply) */
        long top = 1;
        while (top < NP)
            top <<= 1;
        for (long s = top >> 1; s >= 1; s >>= 1)
            rank_round(e, a, &(RankRound){RR_SCATTER, s, bytes / NP}, root, 0);
        ring_allgather(e, a, bytes / NP);
        return;
    }
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *b = buf_get(e);
    for (int p = 0; p < e->P; p++)
        b[p] = bytes;
    if (e->ec && weight(e, en_class_of_rank(e, root)) > 1) {
        int co[MAX_RANK];
        hpfmap_coords(root, e->ec->rank, e->ec->shape, e->pr.placement, co);
        en_isolate(e, co);
    }
    if (alg == ALG_LINEAR) {
        /* the root sends to each in turn: NP-1 rounds of one message (no
           classes: see engine_run) */
        for (int k = 1; k < NP; k++) {
            for (int p = 0; p < NP; p++)
                dst[p] = src[p] = -1;
            int q = (root + k) % NP;
            dst[root] = q;
            src[q] = root;
            hops[q] = en_rank_hops(e, root, q);
            en_exchange(e, a, dst, src, b, hops);
        }
    } else {
        /* binomial tree over the ranks relative to the root: in the round
           of s, relative rank r < s sends to r + s */
        for (long s = 1; s < NP; s <<= 1) {
            for (int p = 0; p < e->P; p++) {
                long r = (rank_of(e, p) - root + NP) % NP;
                dst[p] = src[p] = -1;
                if (r < s && r + s < NP)
                    dst[p] = en_class_of_rank(e, (int)((r + s + root) % NP));
                else if (r >= s && r < 2 * s) {
                    int from = (int)((r - s + root) % NP);
                    src[p] = en_class_of_rank(e, from);
                    hops[p] = en_rank_hops(e, from, rank_of(e, p));
                }
            }
            en_exchange(e, a, dst, src, b, hops);
        }
    }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, b);
}

/* One round of an allreduce: processor rank r sends to rank to(r) and
 * receives from rank from(r) (-1: none), combining what it receives. */
typedef struct {
    int kind;                     /* RD_FOLD, RD_STEP, RD_UNFOLD, RT_STEP */
    long s;                       /* the step's distance */
    int pow2;
} RedRound;
enum { RD_FOLD, RD_STEP, RD_UNFOLD, RT_STEP };

static void red_partners(const RedRound *k, int NP, long r, long *to, long *from)
{
    *to = *from = -1;
    switch (k->kind) {
    case RD_FOLD:                 /* those beyond the largest power of two fold in */
        if (r >= k->pow2)
            *to = r - k->pow2;
        else if (r < NP - k->pow2)
            *from = r + k->pow2;
        break;
    case RD_STEP:                 /* recursive doubling: exchange with r ^ s */
        if (r < k->pow2)
            *to = *from = r ^ k->s;
        break;
    case RD_UNFOLD:               /* and get the result back */
        if (r < NP - k->pow2)
            *to = r + k->pow2;
        else if (r >= k->pow2)
            *from = r - k->pow2;
        break;
    case RT_STEP:                 /* tree to rank 0: r + s sends to r < s */
        if (r < k->s && r + k->s < NP)
            *from = r + k->s;
        else if (r >= k->s && r < 2 * k->s)
            *to = r - k->s;
        break;
    }
}

static void red_round(Eng *e, Aau *a, const RedRound *k, double bytes, double comb)
{
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *b = buf_get(e);
    /* with classes, a step of recursive doubling flips one bit of the
       rank: one bit of one coordinate when the grid's extents are powers
       of two */
    int fd = -1, fbit = 0;
    if (e->ec && k->kind == RD_STEP)
        for (int d = 0, st = 1; d < e->ec->rank; st *= e->ec->shape[d], d++)
            if ((e->ec->shape[d] & (e->ec->shape[d] - 1)) == 0 && k->s >= st &&
                k->s < (long)st * e->ec->shape[d] && (k->pow2 == e->NP)) {
                fd = d;
                fbit = (int)(k->s / st);
            }
    for (int p = 0; p < e->P; p++) {
        long to, from, r = rank_of(e, p);
        red_partners(k, e->NP, r, &to, &from);
        b[p] = bytes;
        dst[p] = to >= 0 ? en_class_of_rank(e, (int)to) : -1;
        src[p] = from >= 0 ? en_class_of_rank(e, (int)from) : -1;
        if (fd >= 0)
            dst[p] = src[p] = en_latest_partner(e, p, fd, 0, fbit, 0, NULL, NULL, bytes);
        if (from >= 0)
            hops[p] = en_rank_hops(e, (int)from, (int)r);
    }
    exchange_done(e, a, dst, src, b, hops, k->kind != RD_UNFOLD ? comb : 0);
}

/* Combining `count` values of type ty with op on every processor, the
 * result on every processor (allreduce). */
void en_reduce_all(Eng *e, Aau *a, int op, double bytes, Type ty)
{
    int NP = e->NP;
    double comb = ty.base == TY_INTEGER || ty.base == TY_LOGICAL
                ? e->pr.op[op == HPFRT_PRODUCT ? OPC_IMUL : OPC_IADD]
                : ty.kind == 8 ? e->pr.op[op == HPFRT_PRODUCT ? OPC_DMUL : OPC_DADD]
                               : e->pr.op[op == HPFRT_PRODUCT ? OPC_FMUL : OPC_FADD];
    if (NP == 1)
        return;
    int alg = bytes > e->pr.red_switch ? e->pr.red_large : e->pr.red_alg;
    if (alg == ALG_RING) {
        /* a reduce-scatter of NP blocks round the ring (each round combines
           a block), then a ring allgather of the blocks (no classes) */
        for (int k = 1; k < NP; k++)
            rank_round(e, a, &(RankRound){RR_AHEAD, 1, bytes / NP}, 0, comb);
        ring_allgather(e, a, bytes / NP);
        return;
    }
    if (alg == ALG_LINEAR) {
        /* to processor 0 one by one (no classes: see engine_run), then a
           broadcast */
        int *dst = buf_get(e), *src = buf_get(e);
        int *hops = buf_get(e);
        double *b = buf_get(e);
        for (int p = 0; p < NP; p++)
            b[p] = bytes;
        for (int q = 1; q < NP; q++) {
            for (int p = 0; p < NP; p++)
                dst[p] = src[p] = -1;
            dst[q] = 0;
            src[0] = q;
            hops[0] = en_rank_hops(e, q, 0);
            en_exchange(e, a, dst, src, b, hops);
            charge(e, a, M_COMP, 0, comb);
        }
        buf_put(e, dst);
        buf_put(e, src);
        buf_put(e, hops);
        buf_put(e, b);
        en_broadcast(e, a, 0, bytes);
        return;
    }
    if (alg == ALG_TREE) {
        long top = 1;
        while (top < NP)
            top <<= 1;
        for (long s = top >> 1; s >= 1; s >>= 1)
            red_round(e, a, &(RedRound){RT_STEP, s, 0}, bytes, comb);
        en_broadcast(e, a, 0, bytes);
        return;
    }
    /* recursive doubling; the processes beyond the largest power of two
       fold their values into the first ones before and get the result after */
    int pow2 = 1;
    while (pow2 * 2 <= NP)
        pow2 *= 2;
    if (pow2 < NP)
        red_round(e, a, &(RedRound){RD_FOLD, 0, pow2}, bytes, comb);
    for (int s = 1; s < pow2; s <<= 1)
        red_round(e, a, &(RedRound){RD_STEP, s, pow2}, bytes, comb);
    if (pow2 < NP)
        red_round(e, a, &(RedRound){RD_UNFOLD, 0, pow2}, bytes, comb);
}
