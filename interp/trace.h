/* trace.h - interpretation traces: the per-processor timelines the
 * interpretation engine records when asked (--trace), written in the forms
 * that visualizers open (doc/traces.md): Chrome Trace Event JSON for
 * Perfetto, Paraver's .prv/.pcf/.row, the PICL records of ParaGraph, and
 * OTF2 through libotf2 when configure finds it. */
#ifndef HPF_TRACE_H
#define HPF_TRACE_H

#include <stddef.h>

/* What an event is. Intervals [t0, t1] on processor `proc`, in seconds of
 * predicted time from the program's start. */
typedef enum {
    TR_COMP,        /* computation of an AAU (line: its source line) */
    TR_OVHD,        /* overhead: loop, call, message set-up and copy costs */
    TR_WAIT,        /* waiting: for a message or for the other processors */
    TR_SEND,        /* a send; peer = destination, msg pairs it with a TR_RECV */
    TR_RECV,        /* a receive completed at t1; peer = source, msg as the send's */
    TR_COLL,        /* a collective operation enclosing the events of its
                       steps on this processor (name: "broadcast",
                       "allreduce", "barrier", "shift", "gather", ...) */
    TR_NKINDS
} TraceKind;

typedef struct {
    double t0, t1;
    int proc;
    TraceKind kind;
    int line;               /* source line; 0: none */
    int aau;                /* AAU id; -1: none */
    int peer;               /* TR_SEND: destination, TR_RECV: source; else -1 */
    long msg;               /* TR_SEND/TR_RECV: message number (>= 0), pairing
                               a send with its receive; else -1 */
    double bytes;           /* TR_SEND/TR_RECV: message size */
    const char *name;       /* a static string: the AAU class ("Seq", "IterD",
                               "Comm", ...) or the collective's name */
} TraceEvent;

typedef struct {
    int np;                 /* processors: proc is 0 .. np-1 */
    const char *program;    /* the source file, as given */
    const char *sag;        /* the machine */
    long n, cap;
    TraceEvent *ev;         /* in the order recorded: by processor, each
                               processor's in time order; TR_COLL events
                               are added when the collective ends */
    long nmsg;              /* messages numbered so far (trace_message) */
    long max;               /* events kept at most (trace_init: TRACE_MAX_EVENTS) */
    long dropped;           /* events added beyond max, not kept */
} Trace;

/* A trace keeps its first events only: a million make a Perfetto file of
 * about 150 MB, near what the viewers load comfortably, in 64 MB here. */
#define TRACE_MAX_EVENTS 1000000L

enum { TRACE_PERFETTO, TRACE_PARAVER, TRACE_PICL, TRACE_OTF2, TRACE_NFORMATS };

void trace_init(Trace *t, int np, const char *program, const char *sag);
void trace_free(Trace *t);
/* Appends a copy of *e (counted in dropped instead once max are kept). */
void trace_add(Trace *t, const TraceEvent *e);
/* A new message number. */
long trace_message(Trace *t);

/* The format named s ("perfetto", "paraver", "picl", "otf2"), or -1. */
int trace_format(const char *s);
/* Whether the format is built in (otf2 needs libotf2 at configure time). */
int trace_format_built(int fmt);

/* Writes the trace. path is the file to write: for perfetto the .json
 * file; for paraver the .prv file (the .pcf and .row beside it, named by
 * replacing the .prv suffix, or appending when there is none); for picl
 * the .trf file; for otf2 the archive's anchor file (path ends in .otf2;
 * the archive's directory is made beside it). Returns 0, or -1 with a
 * one-line reason in err. */
int trace_write(const Trace *t, int fmt, const char *path, char *err, size_t errlen);
/* What trace_write expects (doc/traces.md): events in any order; on each
 * processor they nest (one that starts inside another and ends after it is
 * cut at the other's end); 0 <= t0 <= t1 and proc in 0..np-1 (else -1,
 * naming the event); a message arrives after it is sent. An otf2 path
 * without .otf2 gets it appended, and an archive written before under the
 * name is replaced. program and sag are borrowed, not copied; err may be
 * NULL. */

#endif
