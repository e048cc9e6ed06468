/* trace.c - interpretation traces: the store the engine records into, and
 * the writers of the four forms visualizers open (doc/traces.md): Chrome
 * Trace Event JSON (Perfetto), Paraver's .prv/.pcf/.row (wxParaver), the
 * new PICL records (ParaGraph), and OTF2 through libotf2 (Vampir, ViTE;
 * trace_otf2.c).
 *
 * Every writer starts from the same preparation: times become integer
 * nanoseconds (so that an interval that lies inside another in seconds
 * still does after rounding, and every format sees the same instants),
 * each processor's events are sorted by start, longer first on ties, and
 * cut so that they nest, and each send is paired with its receive by
 * message number. Paraver, PICL and OTF2 are then written from a walk of
 * each processor's nesting: a begin at an event's start, an end at its
 * end, in time order. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_int.h"

/* ---- the store ---- */

void trace_init(Trace *t, int np, const char *program, const char *sag)
{
    memset(t, 0, sizeof *t);
    t->np = np;
    t->program = program;
    t->sag = sag;
    t->max = TRACE_MAX_EVENTS;
}

void trace_free(Trace *t)
{
    free(t->ev);
    t->ev = NULL;
    t->n = t->cap = 0;
    t->nmsg = t->dropped = 0;
}

void trace_add(Trace *t, const TraceEvent *e)
{
    if (t->max > 0 && t->n >= t->max) {
        t->dropped++;
        return;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->ev = xrealloc(t->ev, (size_t)t->cap * sizeof *t->ev);
    }
    t->ev[t->n++] = *e;
}

long trace_message(Trace *t)
{
    return t->nmsg++;
}

static const char *const format_name[TRACE_NFORMATS] = {"perfetto", "paraver", "picl", "otf2"};

int trace_format(const char *s)
{
    for (int f = 0; s && f < TRACE_NFORMATS; f++)
        if (str_ieq(s, format_name[f]))
            return f;
    return -1;
}

int trace_format_built(int fmt)
{
#ifdef HAVE_OTF2
    return fmt >= 0 && fmt < TRACE_NFORMATS;
#else
    return fmt >= 0 && fmt < TRACE_NFORMATS && fmt != TRACE_OTF2;
#endif
}

/* ---- errors ---- */

int tr_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static FILE *open_out(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        tr_fail(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

/* Closes f; a write that failed on the way (a full disk) shows in ferror
 * or in the final flush. */
static int close_out(FILE *f, const char *path, char *err, size_t errlen)
{
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return tr_fail(err, errlen, "cannot write '%s': %s", path, strerror(e ? e : EIO));
    return 0;
}

/* ---- preparation ---- */

/* 1e9 s (about 32 years) keeps every nanosecond count far inside 64 bits. */
#define TRACE_MAX_SECONDS 1e9

static int kind_rank(TraceKind k)
{
    return k == TR_COLL ? 0 : 1;     /* an enclosing collective first on a full tie */
}

static int span_cmp(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    if (x->e->proc != y->e->proc)
        return x->e->proc < y->e->proc ? -1 : 1;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    if (x->t1 != y->t1)
        return x->t1 > y->t1 ? -1 : 1;
    if (kind_rank(x->e->kind) != kind_rank(y->e->kind))
        return kind_rank(x->e->kind) - kind_rank(y->e->kind);
    return x->e < y->e ? -1 : x->e > y->e;
}

/* Message pairing: spans of sends and receives sorted by message number,
 * the send first. */
static const Span *mate_base;

static int mate_cmp(const void *a, const void *b)
{
    const Span *x = mate_base + *(const long *)a, *y = mate_base + *(const long *)b;
    if (x->e->msg != y->e->msg)
        return x->e->msg < y->e->msg ? -1 : 1;
    if (x->e->kind != y->e->kind)
        return x->e->kind == TR_SEND ? -1 : 1;
    return *(const long *)a < *(const long *)b ? -1 : 1;
}

static void pair_messages(Prep *pp)
{
    long m = 0;
    long *ix = xmalloc((size_t)(pp->n ? pp->n : 1) * sizeof *ix);
    for (long i = 0; i < pp->n; i++)
        if ((pp->s[i].e->kind == TR_SEND || pp->s[i].e->kind == TR_RECV) && pp->s[i].e->msg >= 0)
            ix[m++] = i;
    mate_base = pp->s;
    qsort(ix, (size_t)m, sizeof *ix, mate_cmp);
    for (long a = 0; a < m;) {
        long b = a;
        while (b < m && pp->s[ix[b]].e->msg == pp->s[ix[a]].e->msg)
            b++;
        /* the first send and the first receive of the number; they pair
           only if each names the other's processor, so that an arrow is
           never drawn between the wrong two */
        Span *snd = pp->s[ix[a]].e->kind == TR_SEND ? &pp->s[ix[a]] : NULL;
        Span *rcv = NULL;
        for (long c = a; c < b && !rcv; c++)
            if (pp->s[ix[c]].e->kind == TR_RECV)
                rcv = &pp->s[ix[c]];
        if (snd && rcv && snd->e->peer == rcv->e->proc && rcv->e->peer == snd->e->proc) {
            snd->mate = rcv - pp->s;
            rcv->mate = snd - pp->s;
        }
        a = b;
    }
    free(ix);
}

/* Whether the open span top has ended when s begins: it ends at or before
 * s's start, unless both have zero length at the same instant (s is then
 * inside top, where the sort put it). The preparation and the walk decide
 * alike, so that the walk sees the nesting the cutting made. */
static int ended_before(const Span *top, const Span *s)
{
    return top->t1 <= s->t0 && !(top->t0 == top->t1 && s->t0 == s->t1 && top->t0 == s->t0);
}

static void prep_free(Prep *pp)
{
    free(pp->s);
    free(pp->first);
    memset(pp, 0, sizeof *pp);
}

static int prep(const Trace *t, Prep *pp, char *err, size_t errlen)
{
    memset(pp, 0, sizeof *pp);
    pp->t = t;
    pp->np = t->np;
    if (t->np < 1)
        return tr_fail(err, errlen, "the trace has no processors (np = %d)", t->np);
    if (t->n < 0 || (t->n > 0 && !t->ev))
        return tr_fail(err, errlen, "the trace's event store is inconsistent");
    pp->s = xmalloc((size_t)(t->n ? t->n : 1) * sizeof *pp->s);
    for (long i = 0; i < t->n; i++) {
        const TraceEvent *e = &t->ev[i];
        if (e->proc < 0 || e->proc >= t->np) {
            prep_free(pp);
            return tr_fail(err, errlen, "trace event %ld: processor %d is not one of 0..%d", i,
                        e->proc, t->np - 1);
        }
        if ((int)e->kind < 0 || e->kind >= TR_NKINDS) {
            prep_free(pp);
            return tr_fail(err, errlen, "trace event %ld: unknown kind %d", i, (int)e->kind);
        }
        if (!isfinite(e->t0) || !isfinite(e->t1) || e->t0 < 0 || e->t1 < e->t0 ||
            e->t1 > TRACE_MAX_SECONDS) {
            prep_free(pp);
            return tr_fail(err, errlen, "trace event %ld: bad interval [%g, %g] s", i, e->t0,
                        e->t1);
        }
        Span *s = &pp->s[pp->n++];
        s->t0 = llround(e->t0 * 1e9);
        s->t1 = llround(e->t1 * 1e9);
        s->e = e;
        s->mate = -1;
    }
    qsort(pp->s, (size_t)pp->n, sizeof *pp->s, span_cmp);

    pp->first = xcalloc((size_t)pp->np + 1, sizeof *pp->first);
    for (long i = 0; i < pp->n; i++)
        pp->first[pp->s[i].e->proc + 1]++;
    for (int p = 0; p < pp->np; p++)
        pp->first[p + 1] += pp->first[p];

    /* Nesting: an event that starts inside another and ends after it is
       cut at the other's end (every format needs properly nested intervals
       on a processor; the engine is expected to give them). */
    long *stack = xmalloc((size_t)(pp->n ? pp->n : 1) * sizeof *stack);
    for (int p = 0; p < pp->np; p++) {
        long depth = 0;
        for (long i = pp->first[p]; i < pp->first[p + 1]; i++) {
            Span *s = &pp->s[i];
            while (depth && ended_before(&pp->s[stack[depth - 1]], s))
                depth--;
            if (depth && s->t1 > pp->s[stack[depth - 1]].t1) {
                s->t1 = pp->s[stack[depth - 1]].t1;
                pp->clipped++;
            }
            stack[depth++] = i;
            if (depth > pp->maxdepth)
                pp->maxdepth = depth;
        }
    }
    free(stack);
    for (long i = 0; i < pp->n; i++)
        if (pp->s[i].t1 > pp->end)
            pp->end = pp->s[i].t1;
    pair_messages(pp);
    return 0;
}

void tr_walk(const Prep *pp, int p, const Span **stack, WalkFn fn, void *ctx)
{
    long depth = 0;
    for (long i = pp->first[p]; i < pp->first[p + 1]; i++) {
        const Span *s = &pp->s[i];
        while (depth && ended_before(stack[depth - 1], s)) {
            const Span *top = stack[--depth];
            fn(ctx, top, 0, top->t1, stack, depth);
        }
        stack[depth++] = s;
        fn(ctx, s, 1, s->t0, stack, depth);
    }
    while (depth) {
        const Span *top = stack[--depth];
        fn(ctx, top, 0, top->t1, stack, depth);
    }
}

const Span **tr_walk_stack(const Prep *pp)
{
    return xmalloc((size_t)(pp->maxdepth ? pp->maxdepth : 1) * sizeof(Span *));
}

/* ---- names ---- */

static const char *kind_word(const TraceEvent *e)
{
    switch (e->kind) {
    case TR_COMP: return "comp";
    case TR_OVHD: return "overhead";
    case TR_WAIT: return "wait";
    case TR_SEND: return "send";
    case TR_RECV: return "recv";
    case TR_COLL: return e->name && *e->name ? e->name : "collective";
    default: return "event";
    }
}

/* "comp line 42 (Seq)", "send to 2 line 20 (Comm)", "allreduce line 30":
 * the kind (a collective by its name), the peer when with_peer, the source
 * line, the AAU class. */
void tr_event_name(StrBuf *b, const TraceEvent *e, int with_peer)
{
    sb_clear(b);
    sb_puts(b, kind_word(e));
    if (with_peer && e->kind == TR_SEND && e->peer >= 0)
        sb_printf(b, " to %d", e->peer);
    if (with_peer && e->kind == TR_RECV && e->peer >= 0)
        sb_printf(b, " from %d", e->peer);
    if (e->line > 0)
        sb_printf(b, " line %d", e->line);
    if (e->kind != TR_COLL && e->name && *e->name)
        sb_printf(b, " (%s)", e->name);
}

/* Decimal fixed point of a nanosecond count: microseconds with three
 * decimals (Chrome JSON) or seconds with nine (PICL); exact, so that the
 * nesting survives the printing. */
static const char *ns_fixed(char buf[40], long long ns, long long unit, int digits)
{
    snprintf(buf, 40, "%lld.%0*lld", ns / unit, digits, ns % unit);
    return buf;
}

/* Message sizes as integers (the formats count bytes). */
long long tr_bytes_of(const TraceEvent *e)
{
    if (!isfinite(e->bytes) || e->bytes < 0)
        return 0;
    if (e->bytes > 9e18)
        return 9000000000000000000LL;
    return llround(e->bytes);
}

/* Labels in the text formats: one line each, so line breaks become spaces. */
static void put_label(FILE *f, const char *s)
{
    for (; s && *s; s++)
        putc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

/* ---- Chrome Trace Event JSON (Perfetto) ----
 *
 * The JSON object format of the Trace Event Format (Google, "Trace Event
 * Format", the document the Catapult project keeps): one process (the
 * machine), one thread per processor named by thread_name metadata and
 * ordered by thread_sort_index, a complete event (ph "X") per event with
 * ts and dur in microseconds, and flow events (ph "s" and "f", the finish
 * bound to its enclosing slice by bp "e") from each send to its receive.
 * Timestamps are printed exactly from the nanosecond counts. */

/* A JSON string; bytes that are not UTF-8 are taken as Latin-1, so the
 * file stays valid whatever the program's name is made of. */
static void json_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    putc('"', f);
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
                : (c & 0xf8) == 0xf0 ? 3 : -1;
        int ok = n >= 0;
        for (int k = 1; ok && k <= n; k++)
            ok = (p[k] & 0xc0) == 0x80;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (!ok) {
            fprintf(f, "\\u%04x", c);
            p++;
            continue;
        }
        else {
            fwrite(p, 1, (size_t)n + 1, f);
            p += n + 1;
            continue;
        }
        p++;
    }
    putc('"', f);
}

/* Perfetto takes pid == tid as a process's main thread; the processors are
 * threads 1..np of process 1 (processor 0 its main thread, which changes
 * nothing but the label of the process's first track). */
enum { JSON_PID = 1 };

static int write_perfetto(const Prep *pp, const char *path, char *err, size_t errlen)
{
    const Trace *t = pp->t;
    FILE *f = open_out(path, err, errlen);
    if (!f)
        return -1;
    StrBuf name = {0};
    char a[40], b[40];

    fputs("{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":", f);
    json_str(f, PACKAGE_NAME " " PACKAGE_VERSION);
    fputs(",\"program\":", f);
    json_str(f, t->program);
    fputs(",\"machine\":", f);
    json_str(f, t->sag);
    fprintf(f, ",\"processors\":%d,\"events\":%ld,\"clipped\":%ld},\n\"traceEvents\":[\n", pp->np,
            pp->n, pp->clipped);

    sb_printf(&name, "%s (%s)", t->sag ? t->sag : "machine", t->program ? t->program : "program");
    fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":",
            JSON_PID);
    json_str(f, name.s);
    fputs("}}", f);
    for (int p = 0; p < pp->np; p++) {
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\","
                   "\"args\":{\"name\":\"processor %d\"}}",
                JSON_PID, p + 1, p);
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
                   "\"args\":{\"sort_index\":%d}}",
                JSON_PID, p + 1, p);
    }

    for (long i = 0; i < pp->n; i++) {
        const Span *s = &pp->s[i];
        const TraceEvent *e = s->e;
        tr_event_name(&name, e, 1);
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"name\":", JSON_PID,
                e->proc + 1, ns_fixed(a, s->t0, 1000, 3), ns_fixed(b, s->t1 - s->t0, 1000, 3));
        json_str(f, name.s);
        fprintf(f, ",\"cat\":");
        json_str(f, e->kind == TR_COLL ? "collective" : kind_word(e));
        fputs(",\"args\":{", f);
        const char *sep = "";
        if (e->line > 0) {
            fprintf(f, "\"line\":%d", e->line);
            sep = ",";
        }
        if (e->aau >= 0) {
            fprintf(f, "%s\"aau\":%d", sep, e->aau);
            sep = ",";
        }
        if (e->name && *e->name) {
            fprintf(f, "%s\"%s\":", sep, e->kind == TR_COLL ? "collective" : "class");
            json_str(f, e->name);
            sep = ",";
        }
        if (e->kind == TR_SEND || e->kind == TR_RECV) {
            fprintf(f, "%s\"bytes\":%lld,\"peer\":%d,\"msg\":%ld", sep, tr_bytes_of(e), e->peer,
                    e->msg);
            sep = ",";
        }
        if (s->t1 != llround(e->t1 * 1e9))
            fprintf(f, "%s\"clipped\":true", sep);
        fputs("}}", f);
    }

    /* The arrows: each end in the middle of its slice, so that it binds to
       the send or receive itself and not to a neighbour sharing an edge. */
    for (long i = 0; i < pp->n; i++) {
        const Span *s = &pp->s[i];
        if (s->e->kind != TR_SEND || s->mate < 0)
            continue;
        const Span *r = &pp->s[s->mate];
        fprintf(f, ",\n{\"ph\":\"s\",\"id\":%ld,\"pid\":%d,\"tid\":%d,\"ts\":%s,"
                   "\"name\":\"message\",\"cat\":\"message\"}",
                s->e->msg, JSON_PID, s->e->proc + 1, ns_fixed(a, s->t0 + (s->t1 - s->t0) / 2, 1000, 3));
        fprintf(f, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":%ld,\"pid\":%d,\"tid\":%d,\"ts\":%s,"
                   "\"name\":\"message\",\"cat\":\"message\"}",
                s->e->msg, JSON_PID, r->e->proc + 1, ns_fixed(a, r->t0 + (r->t1 - r->t0) / 2, 1000, 3));
    }
    fputs("\n]}\n", f);
    sb_free(&name);
    return close_out(f, path, err, errlen);
}

/* ---- Paraver (.prv, .pcf, .row) ----
 *
 * The format of BSC's "Paraver trace file format" (linked from
 * tools.bsc.es/paraver/trace_generation), as its reader in paraver-kernel
 * parses it (src/ktrace.cpp, resourcemodel.cpp, processmodel.cpp,
 * tracebodyio_v1.cpp):
 *   #Paraver (dd/mm/yy at hh:mm):ftime_ns:nNodes(nCpus,...):nAppl:nTasks(nThreads:node,...)
 *   1:cpu:appl:task:thread:begin:end:state               a state
 *   2:cpu:appl:task:thread:time:type:value[:type:value]  events
 *   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
 * Objects count from 1; "_ns" makes every time integer nanoseconds.
 * Here each processor is a node with one CPU running one task of one
 * thread of the one application, and the records are sorted by their
 * first time. A thread has one state at a time, so the nesting is
 * flattened: a state lasts until the next begin or end; the gaps of a
 * collective between its steps are the collective's state. Events carry
 * the source line, the AAU, its class and the collective in effect (the
 * innermost open event that has one; 0 when none). */

enum {
    PRV_IDLE = 0, PRV_COMP = 1, PRV_WAIT = 3, PRV_SEND = 4, PRV_RECV = 11, PRV_COLL = 13,
    PRV_OVHD = 15
};
/* Event types, out of the ranges Extrae uses. */
enum { PRV_EV_LINE = 70000001, PRV_EV_AAU, PRV_EV_CLASS, PRV_EV_COLL, PRV_NEV = 4 };

static const struct { int state; const char *name; int r, g, b; } prv_states[] = {
    {PRV_IDLE, "Idle", 117, 195, 255},    {PRV_COMP, "Computation", 0, 0, 255},
    {PRV_WAIT, "Waiting", 255, 0, 0},     {PRV_SEND, "Send", 255, 0, 174},
    {PRV_RECV, "Receive", 255, 144, 26},  {PRV_COLL, "Collective", 0, 200, 120},
    {PRV_OVHD, "Overhead", 160, 160, 160},
};

static int prv_state(TraceKind k)
{
    switch (k) {
    case TR_COMP: return PRV_COMP;
    case TR_OVHD: return PRV_OVHD;
    case TR_WAIT: return PRV_WAIT;
    case TR_SEND: return PRV_SEND;
    case TR_RECV: return PRV_RECV;
    case TR_COLL: return PRV_COLL;
    default: return PRV_IDLE;
    }
}

typedef struct {
    long long t;              /* the first time: begin, event time, logical send */
    long seq;                 /* generation order: per processor, time order */
    int type;                 /* 1 state, 2 events, 3 communication */
    int p, q;                 /* processor; for 3 the receiver */
    long long a, b, c, d, e;  /* 1: end, state; 3: psend, lrecv, precv, size, tag */
    int nv;                   /* 2: pairs */
    long long v[2 * PRV_NEV];
} PrvRec;

/* Distinct names, numbered from 1 in order of first appearance. */
typedef struct {
    const char **s;
    int n, cap;
} NameTab;

static int name_id(NameTab *t, const char *s)
{
    if (!s || !*s)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (t->s[i] == s || strcmp(t->s[i], s) == 0)
            return i + 1;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->s = xrealloc(t->s, (size_t)t->cap * sizeof *t->s);
    }
    t->s[t->n++] = s;
    return t->n;
}

typedef struct {
    PrvRec *r;
    long n, cap;
    NameTab classes, colls;
    int p;
    long long cur;            /* the state in effect since cur: top's */
    const Span *top;
    long long pend_t;         /* event values as of pend_t not yet written */
    int have_pend;
    long long emitted[PRV_NEV], now[PRV_NEV];
} PrvCtx;

static PrvRec *prv_new(PrvCtx *c, int type, long long t)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4096;
        c->r = xrealloc(c->r, (size_t)c->cap * sizeof *c->r);
    }
    PrvRec *r = &c->r[c->n];
    memset(r, 0, sizeof *r);
    r->seq = c->n++;
    r->type = type;
    r->t = t;
    r->p = c->p;
    return r;
}

static void prv_flush(PrvCtx *c)
{
    if (!c->have_pend)
        return;
    PrvRec *r = NULL;
    for (int k = 0; k < PRV_NEV; k++) {
        if (c->now[k] == c->emitted[k])
            continue;
        if (!r)
            r = prv_new(c, 2, c->pend_t);
        r->v[2 * r->nv] = PRV_EV_LINE + k;
        r->v[2 * r->nv + 1] = c->now[k];
        r->nv++;
        c->emitted[k] = c->now[k];
    }
    c->have_pend = 0;
}

static void prv_step(void *ctx, const Span *s, int begin, long long t, const Span *const *stack,
                     long depth)
{
    PrvCtx *c = ctx;
    (void)s;
    (void)begin;
    if (c->top && t > c->cur) {
        PrvRec *r = prv_new(c, 1, c->cur);
        r->a = t;
        r->b = prv_state(c->top->e->kind);
    }
    c->cur = t;
    c->top = depth ? stack[depth - 1] : NULL;
    if (c->have_pend && t != c->pend_t)
        prv_flush(c);
    /* the values in effect after the change: the innermost that has each */
    long long v[PRV_NEV] = {0, 0, 0, 0};
    for (long i = depth - 1; i >= 0; i--) {
        const TraceEvent *e = stack[i]->e;
        if (!v[0] && e->line > 0)
            v[0] = e->line;
        if (!v[1] && e->aau >= 0)
            v[1] = (long long)e->aau + 1;
        if (!v[2] && e->kind != TR_COLL && e->name && *e->name)
            v[2] = name_id(&c->classes, e->name);
        if (!v[3] && e->kind == TR_COLL)
            v[3] = name_id(&c->colls, kind_word(e));
    }
    memcpy(c->now, v, sizeof v);
    c->pend_t = t;
    c->have_pend = 1;
}

static int prv_cmp(const void *a, const void *b)
{
    const PrvRec *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* path with its .prv suffix replaced by ext (or ext appended). */
static char *sibling(const char *path, const char *ext)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".prv") == 0)
        n -= 4;
    char *s = xmalloc(n + strlen(ext) + 1);
    memcpy(s, path, n);
    strcpy(s + n, ext);
    return s;
}

/* The trace's date: SOURCE_DATE_EPOCH when set (reproducible output),
 * else now. */
static void trace_date(struct tm *tm)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    char *end;
    time_t now = time(NULL);
    if (sde && *sde) {
        long long v = strtoll(sde, &end, 10);
        if (!*end && v >= 0) {
            now = (time_t)v;
            gmtime_r(&now, tm);
            return;
        }
    }
    localtime_r(&now, tm);
}

/* For the .pcf: an AAU's label from its first event. */
typedef struct {
    int aau, line;
    const char *name;
} AauLabel;

static int aau_label_cmp(const void *a, const void *b)
{
    const AauLabel *x = a, *y = b;
    return (x->aau > y->aau) - (x->aau < y->aau);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int write_pcf(const Prep *pp, const PrvCtx *c, const char *path, char *err, size_t errlen)
{
    FILE *f = open_out(path, err, errlen);
    if (!f)
        return -1;
    fputs("DEFAULT_OPTIONS\n\n"
          "LEVEL               THREAD\n"
          "UNITS               NANOSEC\n"
          "LOOK_BACK           100\n"
          "SPEED               1\n"
          "FLAG_ICONS          ENABLED\n"
          "NUM_OF_STATE_COLORS 1000\n"
          "YMAX_SCALE          37\n\n\n"
          "DEFAULT_SEMANTIC\n\n"
          "THREAD_FUNC          State As Is\n\n\n"
          "STATES\n",
          f);
    size_t ns = sizeof prv_states / sizeof prv_states[0];
    for (size_t i = 0; i < ns; i++)
        fprintf(f, "%-4d %s\n", prv_states[i].state, prv_states[i].name);
    fputs("\n\nSTATES_COLOR\n", f);
    for (size_t i = 0; i < ns; i++)
        fprintf(f, "%-4d {%d,%d,%d}\n", prv_states[i].state, prv_states[i].r, prv_states[i].g,
                prv_states[i].b);

    /* source lines and AAUs seen */
    int *lines = xmalloc((size_t)(pp->n ? pp->n : 1) * sizeof *lines);
    AauLabel *aaus = xmalloc((size_t)(pp->n ? pp->n : 1) * sizeof *aaus);
    long nl = 0, na = 0;
    for (long i = 0; i < pp->n; i++) {
        const TraceEvent *e = pp->s[i].e;
        if (e->line > 0)
            lines[nl++] = e->line;
        if (e->aau >= 0)
            aaus[na++] = (AauLabel){e->aau, e->line, e->kind == TR_COLL ? NULL : e->name};
    }
    qsort(lines, (size_t)nl, sizeof *lines, int_cmp);
    /* stable enough: equal ids keep any label of theirs */
    qsort(aaus, (size_t)na, sizeof *aaus, aau_label_cmp);

    fprintf(f, "\n\nEVENT_TYPE\n0    %d    Source line\nVALUES\n0      none\n", PRV_EV_LINE);
    for (long i = 0; i < nl; i++)
        if (i == 0 || lines[i] != lines[i - 1])
            fprintf(f, "%-6d line %d\n", lines[i], lines[i]);
    fprintf(f, "\n\nEVENT_TYPE\n0    %d    AAU\nVALUES\n0      none\n", PRV_EV_AAU);
    for (long i = 0; i < na; i++) {
        if (i > 0 && aaus[i].aau == aaus[i - 1].aau)
            continue;
        fprintf(f, "%-6lld AAU %d", (long long)aaus[i].aau + 1, aaus[i].aau);
        if (aaus[i].name) {
            fputs(" (", f);
            put_label(f, aaus[i].name);
            putc(')', f);
        }
        if (aaus[i].line > 0)
            fprintf(f, " line %d", aaus[i].line);
        putc('\n', f);
    }
    fprintf(f, "\n\nEVENT_TYPE\n0    %d    AAU class\nVALUES\n0      none\n", PRV_EV_CLASS);
    for (int i = 0; i < c->classes.n; i++) {
        fprintf(f, "%-6d ", i + 1);
        put_label(f, c->classes.s[i]);
        putc('\n', f);
    }
    fprintf(f, "\n\nEVENT_TYPE\n0    %d    Collective\nVALUES\n0      none\n", PRV_EV_COLL);
    for (int i = 0; i < c->colls.n; i++) {
        fprintf(f, "%-6d ", i + 1);
        put_label(f, c->colls.s[i]);
        putc('\n', f);
    }
    fputs("\n", f);
    free(lines);
    free(aaus);
    return close_out(f, path, err, errlen);
}

static int write_row(const Prep *pp, const char *path, char *err, size_t errlen)
{
    FILE *f = open_out(path, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "LEVEL CPU SIZE %d\n", pp->np);
    for (int p = 0; p < pp->np; p++)
        fprintf(f, "processor %d\n", p);
    fprintf(f, "\nLEVEL NODE SIZE %d\n", pp->np);
    for (int p = 0; p < pp->np; p++)
        fprintf(f, "node %d\n", p);
    fputs("\nLEVEL APPL SIZE 1\n", f);
    put_label(f, pp->t->program ? pp->t->program : "program");
    fprintf(f, "\n\nLEVEL TASK SIZE %d\n", pp->np);
    for (int p = 0; p < pp->np; p++)
        fprintf(f, "processor %d\n", p);
    fprintf(f, "\nLEVEL THREAD SIZE %d\n", pp->np);
    for (int p = 0; p < pp->np; p++)
        fprintf(f, "processor %d\n", p);
    return close_out(f, path, err, errlen);
}

static int write_paraver(const Prep *pp, const char *path, char *err, size_t errlen)
{
    PrvCtx c = {0};
    const Span **stack = tr_walk_stack(pp);
    for (int p = 0; p < pp->np; p++) {
        c.p = p;
        c.cur = 0;
        c.top = NULL;
        c.have_pend = 0;
        memset(c.emitted, 0, sizeof c.emitted);
        tr_walk(pp, p, stack, prv_step, &c);
        prv_flush(&c);
    }
    free(stack);
    for (long i = 0; i < pp->n; i++) {
        const Span *s = &pp->s[i];
        if (s->e->kind != TR_SEND || s->mate < 0)
            continue;
        const Span *r = &pp->s[s->mate];
        c.p = s->e->proc;
        PrvRec *x = prv_new(&c, 3, s->t0);
        x->q = r->e->proc;
        x->a = s->t1;
        x->b = r->t0;
        x->c = r->t1;
        x->d = tr_bytes_of(s->e);
        x->e = s->e->msg;
    }
    if (c.n)
        qsort(c.r, (size_t)c.n, sizeof *c.r, prv_cmp);

    int rc = -1;
    char *pcf = sibling(path, ".pcf"), *row = sibling(path, ".row");
    FILE *f = open_out(path, err, errlen);
    if (f) {
        struct tm tm;
        trace_date(&tm);
        fprintf(f, "#Paraver (%02d/%02d/%02d at %02d:%02d):%lld_ns:%d(", tm.tm_mday, tm.tm_mon + 1,
                tm.tm_year % 100, tm.tm_hour, tm.tm_min, pp->end, pp->np);
        for (int p = 0; p < pp->np; p++)
            fprintf(f, "%s1", p ? "," : "");
        fprintf(f, "):1:%d(", pp->np);
        for (int p = 0; p < pp->np; p++)
            fprintf(f, "%s1:%d", p ? "," : "", p + 1);
        fputs(")\n", f);
        for (long i = 0; i < c.n; i++) {
            const PrvRec *r = &c.r[i];
            int o = r->p + 1;
            switch (r->type) {
            case 1:
                fprintf(f, "1:%d:1:%d:1:%lld:%lld:%lld\n", o, o, r->t, r->a, r->b);
                break;
            case 2:
                fprintf(f, "2:%d:1:%d:1:%lld", o, o, r->t);
                for (int k = 0; k < r->nv; k++)
                    fprintf(f, ":%lld:%lld", r->v[2 * k], r->v[2 * k + 1]);
                putc('\n', f);
                break;
            default:
                fprintf(f, "3:%d:1:%d:1:%lld:%lld:%d:1:%d:1:%lld:%lld:%lld:%lld\n", o, o, r->t,
                        r->a, r->q + 1, r->q + 1, r->b, r->c, r->d, r->e);
                break;
            }
        }
        rc = close_out(f, path, err, errlen);
    }
    if (rc == 0)
        rc = write_pcf(pp, &c, pcf, err, errlen);
    if (rc == 0)
        rc = write_row(pp, row, err, errlen);
    free(pcf);
    free(row);
    free(c.r);
    free(c.classes.s);
    free(c.colls.s);
    return rc;
}

/* ---- PICL (ParaGraph) ----
 *
 * The "new" PICL trace format (P. H. Worley, "A new PICL trace file
 * format", ORNL/TM-12125, 1992), which ParaGraph reads since its 1994
 * version (M. T. Heath and J. E. Finger, "ParaGraph: a tool for
 * visualizing performance of parallel programs"; netlib paragraph/update),
 * the successor of the record set of PICL itself (G. A. Geist, M. T.
 * Heath, B. W. Peyton, P. H. Worley, "PICL: a portable instrumented
 * communication library", ORNL/TM-11130/11616). One ASCII record a line:
 *   record-type event-type time node process n [data-type d1 .. dn]
 * record type -3 at an event's begin and -4 at its end; time in seconds;
 * n data items, all of data type 2 (integer). The event types written,
 * with their data as the PICL writers for ParaGraph of coNCePTuaL (LANL,
 * its picl back end, citing ORNL/TM-12125) and of PARASOL (pgfilter.awk)
 * write them:
 *   -901  tracing (begin: trace start, end: trace stop), no data
 *   -21   send; begin: length, type, destination node, destination process
 *   -52   receive; begin: type, source node, source process;
 *         end: length, type, source node, source process
 *   -601  idle: a processor waiting (TR_WAIT), no data
 *   L >= 0 a user-defined event: the computation of source line L, the
 *         block begin/end that ParaGraph's task displays show
 * The message type is the message number, so that ParaGraph pairs each
 * send with its own receive. ParaGraph counts time in sends and receives
 * as overhead and idle time as idle, the rest as busy: the engine's
 * overhead events are busy here, and a collective is drawn through its
 * steps; a send or receive without its partner is left out. Records are
 * sorted by time (ties: trace starts first, trace stops last, then by
 * node, then in each node's order). */

typedef struct {
    long long t;
    int cls;                  /* 0 trace start, 1 events, 2 trace stop */
    int node;
    long seq;
    int rec, evt, nd;
    long long d[4];
} PiclRec;

typedef struct {
    PiclRec *r;
    long n, cap;
} PiclCtx;

static PiclRec *picl_new(PiclCtx *c, int cls, long long t, int node, int rec, int evt)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4096;
        c->r = xrealloc(c->r, (size_t)c->cap * sizeof *c->r);
    }
    PiclRec *r = &c->r[c->n];
    memset(r, 0, sizeof *r);
    r->t = t;
    r->cls = cls;
    r->node = node;
    r->seq = c->n++;
    r->rec = rec;
    r->evt = evt;
    return r;
}

/* The data of a send, and of a receive's end: length, type, the other
 * node, and a zero (ParaGraph's layout). */
static void picl_message(PiclRec *r, const TraceEvent *e, long long type)
{
    r->nd = 4;
    r->d[0] = tr_bytes_of(e);
    r->d[1] = type;
    r->d[2] = e->peer;
    r->d[3] = 0;
}

enum { PICL_BEGIN = -3, PICL_END = -4, PICL_TRACE = -901, PICL_SEND = -21, PICL_RECV = -52,
       PICL_IDLE = -601 };

static void picl_step(void *ctx, const Span *s, int begin, long long t, const Span *const *stack,
                      long depth)
{
    PiclCtx *c = ctx;
    const TraceEvent *e = s->e;
    int rec = begin ? PICL_BEGIN : PICL_END;
    long long type = e->msg >= 0 ? e->msg : 0;
    PiclRec *r;
    (void)stack;
    (void)depth;
    switch (e->kind) {
    case TR_COMP:
        picl_new(c, 1, t, e->proc, rec, e->line > 0 ? e->line : 0);
        break;
    case TR_WAIT:
        picl_new(c, 1, t, e->proc, rec, PICL_IDLE);
        break;
    case TR_SEND:
        if (s->mate < 0)       /* ParaGraph would wait for its partner */
            break;
        r = picl_new(c, 1, t, e->proc, rec, PICL_SEND);
        if (begin)
            picl_message(r, e, type);
        break;
    case TR_RECV:
        if (s->mate < 0)
            break;
        r = picl_new(c, 1, t, e->proc, rec, PICL_RECV);
        if (begin) {
            r->nd = 3;
            r->d[0] = type;
            r->d[1] = e->peer;
            r->d[2] = 0;
        }
        else
            picl_message(r, e, type);
        break;
    default:
        break;
    }
}

static int picl_cmp(const void *a, const void *b)
{
    const PiclRec *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls - y->cls;
    if (x->node != y->node)
        return x->node - y->node;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_picl(const Prep *pp, const char *path, char *err, size_t errlen)
{
    PiclCtx c = {0};
    const Span **stack = tr_walk_stack(pp);
    for (int p = 0; p < pp->np; p++) {
        picl_new(&c, 0, 0, p, PICL_BEGIN, PICL_TRACE);
        tr_walk(pp, p, stack, picl_step, &c);
        picl_new(&c, 2, pp->end, p, PICL_END, PICL_TRACE);
    }
    free(stack);
    qsort(c.r, (size_t)c.n, sizeof *c.r, picl_cmp);
    int rc = -1;
    FILE *f = open_out(path, err, errlen);
    if (f) {
        char tb[40];
        for (long i = 0; i < c.n; i++) {
            const PiclRec *r = &c.r[i];
            fprintf(f, "%d %d %s %d 0 %d", r->rec, r->evt, ns_fixed(tb, r->t, 1000000000, 9),
                    r->node, r->nd);
            if (r->nd) {
                fputs(" 2", f);
                for (int k = 0; k < r->nd; k++)
                    fprintf(f, " %lld", r->d[k]);
            }
            putc('\n', f);
        }
        rc = close_out(f, path, err, errlen);
    }
    free(c.r);
    return rc;
}

/* ---- the entry point ---- */

int trace_write(const Trace *t, int fmt, const char *path, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (fmt < 0 || fmt >= TRACE_NFORMATS)
        return tr_fail(err, errlen, "unknown trace format %d", fmt);
    if (!trace_format_built(fmt))
        return tr_fail(err, errlen, "%s traces are not built in (configure did not find libotf2)",
                    format_name[fmt]);
    if (!t)
        return tr_fail(err, errlen, "no trace to write");
    if (!path || !*path)
        return tr_fail(err, errlen, "no file name for the %s trace", format_name[fmt]);
    Prep pp;
    if (prep(t, &pp, err, errlen) != 0)
        return -1;
    int rc = -1;
    switch (fmt) {
    case TRACE_PERFETTO: rc = write_perfetto(&pp, path, err, errlen); break;
    case TRACE_PARAVER: rc = write_paraver(&pp, path, err, errlen); break;
    case TRACE_PICL: rc = write_picl(&pp, path, err, errlen); break;
#ifdef HAVE_OTF2
    case TRACE_OTF2: rc = tr_write_otf2(&pp, path, err, errlen); break;
#endif
    default: break;
    }
    prep_free(&pp);
    return rc;
}
