/* comm_reason.h - a communication of the SAAG in words: what kind it is
 * (an overlap shift, a broadcast, a gather, ...) and why the mapping makes
 * it, for reports (the HTML report, doc/outputs.md). */
#ifndef HPF_COMM_REASON_H
#define HPF_COMM_REASON_H

#include "aag.h"

/* The kind in a word or two: "overlap shift", "broadcast", "gather",
 * "circular shift", "transpose", "multicast", "redistribution", "scatter",
 * "reduction", "READ broadcast", "barrier". */
const char *comm_kind_words(const CommEntry *e);

/* Why the mapping makes it: one sentence naming the reference, the
 * dimension and its format (heap). */
char *comm_reason(const CommEntry *e);

/* The format of dimension d of a (its template dimension's): "BLOCK",
 * "CYCLIC(4)", "*" (not distributed), "replicated" (a full copy on every
 * processor); in buf. */
const char *comm_dim_format(const SpArr *a, int d, char *buf, size_t n);

#endif
