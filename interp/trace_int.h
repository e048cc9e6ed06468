/* trace_int.h - what the trace writers share (trace.c: the store, the
 * preparation every writer starts from, Chrome, Paraver and PICL;
 * trace_otf2.c: OTF2 through libotf2); not for other stages. */
#ifndef HPF_TRACE_INT_H
#define HPF_TRACE_INT_H

#include <stdio.h>

#include "trace.h"
#include "util.h"

/* One event on the integer time line, with its send or receive partner. */
typedef struct {
    long long t0, t1;         /* nanoseconds from the program's start */
    const TraceEvent *e;
    long mate;                /* index of the paired send/receive; -1: none */
} Span;

typedef struct {
    const Trace *t;
    int np;
    long n;
    Span *s;                  /* by processor; in each, by start, longer first */
    long *first;              /* processor p's spans: s[first[p] .. first[p+1]) */
    long long end;            /* the latest end: the trace's length */
    long clipped;             /* events cut to nest inside another */
    long maxdepth;            /* the deepest nesting on any processor */
} Prep;

/* The walk of one processor's nesting: fn is called with begin = 1 at each
 * span's start and begin = 0 at its end, times never decreasing; stack and
 * depth are the open spans after the change (innermost last). */
typedef void (*WalkFn)(void *ctx, const Span *s, int begin, long long t, const Span *const *stack,
                       long depth);

/* trace.c <-> trace_otf2.c */
int tr_write_otf2(const Prep *pp, const char *path, char *err, size_t errlen);
int tr_fail(char *err, size_t errlen, const char *fmt, ...) HPF_PRINTF(3, 4);
void tr_walk(const Prep *pp, int p, const Span **stack, WalkFn fn, void *ctx);
const Span **tr_walk_stack(const Prep *pp);
void tr_event_name(StrBuf *b, const TraceEvent *e, int with_peer);
long long tr_bytes_of(const TraceEvent *e);

#endif
