/* html.h - the report page (--html FILE): one self-contained HTML file
 * per run of hpfpredict, holding the predictions as one JSON object that
 * the page's own script renders (doc/outputs.md, "The report page").
 *
 * The object: {"report": "hpfpredict", "version": 1, "program", "sag",
 * "command", "points": [...], "sweep": {...} or null, "ranking": {...} or
 * null}. Each point is the prediction's --format=json object with every
 * line (as --annotate gives them) and the keys "aaus" (each AAU's own
 * profile), "communications" (each communication of the SAAG: kind, reason,
 * edges), "processors" and "trace" added. */
#ifndef HPF_HTML_H
#define HPF_HTML_H

#include <stdio.h>

#include "engine.h"
#include "plot.h"
#include "report.h"
#include "trace.h"

typedef struct Html Html;

/* Events of the trace the page keeps: the first HTML_TRACE_PROCS
 * processors', at most HTML_TRACE_EVENTS of them. */
enum { HTML_TRACE_PROCS = 16, HTML_TRACE_EVENTS = 50000 };

Html *html_new(const char *program, const char *sag, const char *command);
void html_free(Html *h);

/* One prediction: rp (its query is replaced by every line), the
 * processors' times (NULL: none), its trace (NULL: not traced) and, for
 * --compare, the mapping's label (NULL: none). */
void html_point(Html *h, const Report *rp, const EngineProcs *ps, const Trace *t,
                const char *mapping);
/* The sweep's table and plot (after its last point). */
void html_sweep(Html *h, const Sweep *sw);
/* --compare's ranking, a JSON object (taken: freed by html_free). */
void html_ranking(Html *h, char *json);

/* The object, alone (--format=json with --html). */
void html_object(const Html *h, FILE *out);
/* The page. 0, or -1 when it could not be made (a write error shows in out). */
int html_page(const Html *h, FILE *out);

#endif
