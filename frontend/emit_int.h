/* emit_int.h - what the files of the SPMD program writer share (emit.c:
 * lines, names, expressions, declarations, the data mapping at run time
 * and statements; emit_loop.c: the loops over each processor's own
 * iterations, with their gathers and scatters); not for other stages. */
#ifndef HPF_EMIT_INT_H
#define HPF_EMIT_INT_H

#include <stdio.h>

#include "spmd.h"

/* What a walk of a loop writes: the computation; in a gather's round,
 * the counts of the elements, then their records; the copy of a
 * temporary left-hand side into its array. */
enum { W_COMPUTE, W_COUNT, W_RECORD, W_COPY };

typedef struct {
    FILE *out;
    int fixed;
    const SpProgram *prog;
    const SpUnit *u;
    const char *p;               /* prefix of generated names */
    int level;
    const SpLoop *loop;          /* the loop whose references are printed */
    int last_line;               /* last source line given in a comment */
    char *marks;                 /* W_COUNT/W_RECORD: contexts on the way to this round */
    int round;
    PtrVec targets;              /* labels some GOTO of the unit jumps to */
    char *cused;                 /* counters the unit's loops use */
    char *lused;                 /* loop handles they use */
    PtrVec vused;                /* index variables they use */
    int uses_x, uses_n;          /* the unit needs hpf_x, hpf_n */
    PtrVec gsites;               /* SpGather: the unit's gathers, each a schedule handle */
    PtrVec dsites;               /* SpGather: those read in place on one process
                                    (spmd_direct_one): hpf_yN_d, hpf_zN_d */
    int direct;                  /* a walk of that way: gathered references in place */
} Emit;

/* emit.c: lines, names, expressions */
void em_line(Emit *E, const char *fmt, ...) HPF_PRINTF(2, 3);   /* a statement */
void em_directive(Emit *E, const char *text);  /* "!TEXT" from column 1 (!GCC$ ...) */
char *em_ex(Emit *E, const Node *n);           /* an expression's text (free it) */
char *em_int(Emit *E, const Node *n);          /* the same as libhpfrt's default INTEGER */
const char *em_tsuffix(Type t);                /* libhpfrt's suffix for type t */
char *em_desc(Emit *E, const SpArr *a);        /* an array's descriptor (a static buffer) */
void em_first_elem(Emit *E, StrBuf *b, const SpArr *a);   /* its first local element */

/* emit_loop.c */
void emit_loop(Emit *E, const SpStmt *s);      /* SP_FORALL, SP_REDUCE */

#endif
