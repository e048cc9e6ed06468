/* automap.h - hpfc --auto-map (automap.c). */
#ifndef HPF_AUTOMAP_H
#define HPF_AUTOMAP_H

#include "frontend.h"

typedef struct {
    const char *np;              /* -np N: the processor count */
    const char *sag;             /* -sag FILE, or NULL: hpfpredict's default */
    const char **defs;           /* the -D NAME=VALUE arguments, as given */
    int ndefs;
    Define *dv;                  /* the same, read (frontend_compile's) */
    int ndv;
} AutoMapArgs;

/* The least predicted gain for which the directives are changed: 1%. */
#define AUTOMAP_MIN_GAIN 0.01

/* Ranks the mappings of f (checked tree ast) with hpfpredict --compare on
 * a->np processors and writes f's source under the fastest to outpath
 * ("-": standard output): the program unchanged when no mapping is
 * AUTOMAP_MIN_GAIN faster than its own. Returns hpfc's exit status (0, 1, or 4 when the rewrite
 * does not compile). */
int auto_map(const SrcFile *f, int fixed, const Node *ast, const AutoMapArgs *a,
             const char *outpath);

#endif
