/* plot.h - the results of a prediction sweep (several processor counts,
 * and several problem points when -D gives more than one value) as plots
 * and tables: predicted time against processors, one curve per problem
 * point, and stacked bars of each prediction's split into computation,
 * communication, overhead and waiting (one SVG document holding both), and
 * the same numbers as an aligned text table, CSV and JSON.
 *
 * The caller fills one SweepPoint per prediction, in any order; nothing is
 * kept after a call returns. Every output groups the points by label (in
 * the order the labels first appear) and orders each group by processor
 * count; points with the same label and count keep their input order.
 *
 * Speedup and efficiency are relative to the smallest processor count of
 * the same label (its "base"): speedup = base total / total, efficiency =
 * speedup * base np / np. The base point's speedup is 1 by definition; a
 * speedup that would divide by a total of 0 has no value ("-" in the text
 * table, an empty field in CSV, null in JSON), nor has its efficiency.
 *
 * Every function refuses (returns -1, writes nothing) when the sweep is
 * invalid: see sweep_invalid. It also returns -1 when writing fails
 * (ferror on `out` afterwards); then part of the output may be written. */
#ifndef HPF_PLOT_H
#define HPF_PLOT_H

#include <stdio.h>

/* The parts of a prediction, in the order of the engine's metrics
 * (M_COMP .. M_WAIT of engine.h), so that part[] can be copied from them. */
enum { SWEEP_COMP, SWEEP_COMM, SWEEP_OVHD, SWEEP_WAIT, SWEEP_NPART };

/* "computation", "communication", "overhead", "waiting": the names the
 * legends, the table headers and the JSON keys use. */
extern const char *const sweep_part_name[SWEEP_NPART];

typedef struct {
    int np;                    /* processors, >= 1 */
    const char *label;         /* the problem point, e.g. "n=256" or
                                  "n=256 maxit=10"; "" or NULL when the
                                  sweep is over processors only */
    double total;              /* seconds: the slowest processor's time */
    double part[SWEEP_NPART];  /* seconds: the split of the slowest processor (the report's) */
} SweepPoint;

typedef struct {
    const char *program;       /* the source file as given */
    const char *sag;           /* the SAG file or built-in name */
    const char *title;         /* the SVG's heading; NULL or "": one made
                                  from program */
    const SweepPoint *pt;      /* n points (pt may be NULL when n is 0) */
    int n;
} Sweep;

/* Why the sweep cannot be written, or NULL when it can: n < 0, pt NULL
 * with n > 0, a processor count below 1, or a time that is not finite
 * (NaN or infinite). A static string, for the caller's error message.
 * Negative times are accepted: the tables print them as they are, the
 * plots draw them as 0. */
const char *sweep_invalid(const Sweep *s);

/* Both plots in one standalone SVG 1.1 document (UTF-8): on top, time
 * against processors (a base-2 logarithmic axis when the counts span more
 * than a factor 4, else linear), one polyline with markers per label; below,
 * one stacked bar per point with a mark at its total. A sweep of no point
 * gives the empty axes. 0, or -1 (invalid sweep, an axis that overflows,
 * no memory, or a write error). */
int sweep_svg(FILE *out, const Sweep *s);

/* The table as aligned text: a heading line naming the program and the
 * SAG, the column headers, and one row per point: label (the column is left
 * out when every label is empty), np, total, the four parts (seconds, six
 * decimals), speedup and efficiency (three decimals); a blank line between
 * labels. 0 or -1. */
int sweep_table_text(FILE *out, const Sweep *s);

/* CSV (RFC 4180): the header row
 *   label,np,total,computation,communication,overhead,waiting,speedup,efficiency
 * then one row per point; the label always quoted. 0 or -1. */
int sweep_table_csv(FILE *out, const Sweep *s);

/* One JSON object:
 *   {"program": .., "sag": .., "points": [
 *     {"label": .., "np": .., "total": .., "computation": .., "communication": ..,
 *      "overhead": .., "waiting": .., "speedup": .., "efficiency": ..}, ...]}
 * with a newline at the end. 0 or -1. */
int sweep_table_json(FILE *out, const Sweep *s);

#endif
