/* remap.h - alternative data mappings of one program (automatic directive
 * selection, hpfpredict --compare): the choices a program's DISTRIBUTE
 * directives could make, enumerated or read from a user's specification,
 * printed as labels or as directives, and applied to a freshly parsed tree
 * (frontend_compile_remapped) so that one source file compiles under any
 * of them. doc/frontend.md ("Alternative mappings") gives the rules. */
#ifndef HPF_REMAP_H
#define HPF_REMAP_H

#include <stdio.h>

#include "sema.h"

enum {
    REMAP_NAME_MAX = 32,         /* a name and its NUL: 31 characters, the Fortran 95 limit */
    REMAP_MAX_DIST = 8,          /* DISTRIBUTE directives of a program that can be varied */
    REMAP_MAX_NAMES = 8,         /* names of one DISTRIBUTE (fmts) ONTO p :: a, b, ... */
    REMAP_MAX_CANDIDATES = 256   /* remap_candidates stops there */
};

enum { REMAP_LABEL = 0, REMAP_DIRECTIVES = 1, REMAP_SPEC = 2 };   /* remap_print styles */

/* One dimension's format: fmt is DIST_BLOCK, DIST_CYCLIC or DIST_STAR
 * (ast.h); k the argument of BLOCK(k) or CYCLIC(k), 0 when there is none. */
typedef struct {
    int fmt;
    long long k;
} RemapFmt;

/* What one DISTRIBUTE directive maps: a template, an array distributed
 * directly, or the arrays of an attributed DISTRIBUTE (fmts) :: a, b (one
 * choice for all of them, as the program mapped them alike). Arrays
 * ALIGNed with it follow it. */
typedef struct {
    int unit;                    /* the program unit, numbered in the file from 0:
                                    each unit, then its internal subprograms */
    char unit_name[REMAP_NAME_MAX];   /* "" for a main program without PROGRAM */
    int nnames;
    char names[REMAP_MAX_NAMES][REMAP_NAME_MAX];
    int attributed;              /* written DISTRIBUTE (fmts) ... :: names */
    int rank;
    RemapFmt fmt[MAX_RANK];
    int procs;                   /* its ONTO: an index into Remap.procs; -1 for
                                    none (the default 1-D arrangement) */
    int changed;                 /* formats or grid differ from the program's */
} RemapDist;

/* A processor arrangement named by an ONTO. */
typedef struct {
    int unit;
    char name[REMAP_NAME_MAX];
    int rank;
    int ext[MAX_RANK];           /* extents; 0 is NUMBER_OF_PROCESSORS() */
    int declared;                /* the program's own PROCESSORS (reshaped to ext);
                                    0: a new PROCESSORS directive of the rewrite */
} RemapProcs;

/* One subscript of an ALIGN's target as the search varies it: a dummy of
 * the alignee (dummy >= 0, an index into the ALIGN's written alignee
 * subscripts) plus off; the constant off (dummy < 0, star 0); or '*'.
 * from: the written target subscript it is, unchanged (its node kept by
 * the rewrite), or -1. */
typedef struct {
    signed char dummy, star, from;
    long long off;
} RemapSub;

/* An alignment of an ALIGN: its alignee's subscripts (src[p]: the written
 * alignee subscript, a dummy or '*', at position p) and its target's. */
typedef struct {
    int nsrc, ntgt;
    signed char src[MAX_RANK];
    RemapSub tgt[MAX_RANK];
} RemapAlignment;

/* How an alignment differs from the ALIGN as written (doc/frontend.md):
 * the two dummy subscripts of the target swapped; the alignee's dummy
 * moved to its collapsed dimension ((i,*) and (*,i)); the target's offsets
 * dropped (t(i+1) to t(i)); a replicated target dimension held at its
 * first position (t(i,*) to t(i,1)); a target dimension held at one
 * position replicated (t(i,1) to t(i,*)). */
enum { REMAP_AL_WRITTEN, REMAP_AL_TRANSPOSED, REMAP_AL_COLLAPSED, REMAP_AL_IDENTITY,
       REMAP_AL_ONE, REMAP_AL_REPLICATED, REMAP_AL_KINDS };

/* An ALIGN of the program that the search can vary: its target a template
 * or array that a DISTRIBUTE of the same unit maps, every target subscript
 * a dummy, a dummy plus or minus a constant, a constant or '*', the
 * extents known. */
typedef struct {
    int unit;
    char unit_name[REMAP_NAME_MAX];
    int nnames;
    char names[REMAP_MAX_NAMES][REMAP_NAME_MAX];
    int attributed;              /* ALIGN (i, j) WITH t(...) :: names */
    char target[REMAP_NAME_MAX];
    char dummy[MAX_RANK][REMAP_NAME_MAX];   /* the written alignee subscripts; "*" */
    RemapAlignment written, now;
    int kind;                    /* REMAP_AL_*: how now differs from written */
} RemapAlign;

enum { REMAP_MAX_ALIGN = 8,
       REMAP_MAX_GROUPS = REMAP_MAX_DIST + REMAP_MAX_ALIGN };   /* groups of a RemapSpace */

/* One data mapping of a program. */
typedef struct {
    int np;                      /* the processor count it was made for; 0 if unknown */
    int own;                     /* the program's mapping as written: compiled unchanged */
    int ndist, nprocs;
    RemapDist dist[REMAP_MAX_DIST];
    RemapProcs procs[REMAP_MAX_DIST];
    int nalign;                  /* the ALIGNs that can be varied (the first
                                    REMAP_MAX_ALIGN of the program) */
    RemapAlign align[REMAP_MAX_ALIGN];
} Remap;

/* The mappings worth comparing for np processors, the program's own first;
 * file is a checked tree (frontend_compile). *out is malloc'ed (free it);
 * the return value is the count, at least 1. *total (when total is not
 * NULL) is the number of mappings before the cap of REMAP_MAX_CANDIDATES:
 * when it exceeds the count, tell the user only the first were kept. A
 * program that cannot be varied (no DISTRIBUTE, more than REMAP_MAX_DIST of
 * them, a name longer than 31 characters, np < 2) gives its own mapping
 * only. */
int remap_candidates(const Node *file, int np, Remap **out, long *total);

/* The search space of hpfpredict --compare and hpfc --auto-map: per
 * DISTRIBUTE (a group: the template or arrays it maps, with what is
 * aligned to them), the choices of remap_candidates' list (its own first,
 * index 0) followed by the same formats with other block sizes: CYCLIC(k)
 * and BLOCK(k) for a few k, the powers of two and the divisors of the
 * extent, where the layout differs (doc/frontend.md). A program that
 * cannot be varied has no group; with np < 2 each group has its own
 * choice only. */
typedef struct RemapSpace RemapSpace;
RemapSpace *remap_space_new(const Node *file, int np);
void remap_space_free(RemapSpace *s);
int remap_space_groups(const RemapSpace *s);
/* The groups of DISTRIBUTEs come first; the others are ALIGNs, each with
 * its alignment as written (choice 0) and the variants that fit
 * (RemapAlign.kind, at most one of each kind). */
int remap_space_dist_groups(const RemapSpace *s);
int remap_space_choices(const RemapSpace *s, int group);
/* The largest share of the group's elements that one processor holds
 * under that choice, 0 < share <= 1 (an extent not known at compile time
 * counts as balanced): the computation estimate of the search. */
double remap_space_share(const RemapSpace *s, int group, int choice);
/* How two choices of a group relate: REMAP_SAME_FORMATS, the same
 * formats but for their block sizes; REMAP_SAME_GRID, the same grid as the
 * run forms it; both or neither. */
enum { REMAP_SAME_FORMATS = 1, REMAP_SAME_GRID = 2 };
int remap_space_relation(const RemapSpace *s, int group, int a, int b);
/* An ALIGN group's choice: how its alignment differs from the written one
 * (REMAP_AL_*; 0 for the written one and for a DISTRIBUTE's choices). */
int remap_space_align_kind(const RemapSpace *s, int group, int choice);
/* Two ALIGN groups of one unit aligned with the same target (their
 * variants of one kind are tried together). */
int remap_space_align_peers(const RemapSpace *s, int g, int h);
/* A choice of remap_candidates' list: plain BLOCK, CYCLIC and '*' (the
 * program's own block sizes kept), no other block size. */
int remap_space_plain(const RemapSpace *s, int group, int choice);
/* Its grid is the one the run forms for np processes with no extents
 * given (the most balanced, runtime/hpfmap.c); a 1-D grid always is. */
int remap_space_default_grid(const RemapSpace *s, int group, int choice);
/* The mapping of one choice per group (choice[g] < remap_space_choices);
 * all zero is the program's own, r->own set. */
void remap_space_make(const RemapSpace *s, const int *choice, Remap *r);

/* The program's own mapping. Returns 0, or -1 when it cannot be described
 * (the reasons above): *r is then an own mapping with no entries. */
int remap_own(const Node *file, int np, Remap *r);

/* Reads a user's choice against the checked tree file:
 *   SPEC  := ITEM (';' ITEM)*
 *   ITEM  := [UNIT ':'] NAME '=' FMTS ['@' GRID]   or   [UNIT ':'] NAME '(' FMTS ')' ['@' GRID]
 *   FMTS  := FMT (',' FMT)*      FMT := BLOCK | BLOCK(k) | CYCLIC | CYCLIC(k) | '*'
 *   or [UNIT ':'] ALIGNEE '=' TRANSPOSED: that ALIGN's two target subscripts
 *   swapped (an array ALIGNed with a rank-2 distributed template or array)
 *   or [UNIT ':'] ALIGNEE '=' '(' SUBS ')' WITH TARGET '(' SUBS ')': one of
 *   the alignments the search tries for that ALIGN, as its label writes it
 *   GRID  := EXTENT ('x' EXTENT)*, one extent per distributed dimension
 * e.g. "temp=BLOCK,*" or "tp=CYCLIC; tg=BLOCK" or "temp=(BLOCK,BLOCK)@2x2".
 * NAME is a distributed template or array (any name of an attributed
 * DISTRIBUTE); what the spec does not name keeps the program's mapping, and
 * an empty spec (blanks or ';' only) is the program's own mapping.
 * Without a grid, one distributed dimension goes over np processors (or
 * the program's NUMBER_OF_PROCESSORS() arrangement), several over the most
 * balanced grid of np, or of the program's arrangement when np <= 0.
 * Returns 0, or -1 with a message in err. */
int remap_parse(const Node *file, const char *spec, int np, Remap *r, char *err, size_t errlen);

/* REMAP_LABEL: a short label for tables, "temp(BLOCK,*) on prc(4)";
 * REMAP_DIRECTIVES: the directives to write in the program, one per line,
 * "!HPF$ PROCESSORS prc(4)" then "!HPF$ DISTRIBUTE temp(BLOCK, *) ONTO prc";
 * REMAP_SPEC: the spec that remap_parse (and hpfc --map) reads back into the
 * same mapping, "temp=BLOCK,*@4": the entries that differ from the program
 * (none, an empty spec, for its own mapping). */
void remap_print(FILE *out, const Remap *r, int style);
char *remap_string(const Remap *r, int style);   /* the same, on the heap */

/* The same mapping: formats and processor grids (NUMBER_OF_PROCESSORS()
 * taken as np), whatever the arrangements are called. */
int remap_equal(const Remap *a, const Remap *b);

/* The rewrite on a parsed, unchecked tree: the DISTRIBUTE directives get
 * r's formats and ONTO, the PROCESSORS arrangements r's extents, new ones
 * are declared. Problems are diagnostics; returns their number. */
int remap_apply(Node *file, const Remap *r, Arena *a, Diag *d);

/* The program's source text f under r, for hpfc --auto-map: file is f's
 * checked tree. The lines of each DISTRIBUTE r changes are replaced by
 * r's directive, in the directive's own spelling (its sentinel, !HPF$ or
 * CHPF$, and the case of its keyword); an arrangement r reshapes is
 * declared anew beside it (name_m2, ...: the program's declaration stays,
 * other directives may use it); every other line is kept as it is. The
 * lines of comment (may be NULL) go before the first replaced directive,
 * as comments of the form (fixed: 'C'). Returns the text (heap), or NULL
 * with the reason in err: two DISTRIBUTEs on one line, a fixed-form line
 * past column 72. */
char *remap_source(const SrcFile *f, const Node *file, const Remap *r, int fixed,
                   const char *comment, char *err, size_t errlen);

/* Appends each line of text to b as a comment line of the source form
 * (fixed: "C ", free: "! "). */
void remap_put_comment(StrBuf *b, const char *text, int fixed);

/* The same for a program of phases (its top-level loops), each with its
 * mapping: maps[0] is written as the DISTRIBUTE (remap_source), the
 * template or array is declared DYNAMIC, and before line first_line[k]
 * (k >= 1) a REDISTRIBUTE to maps[k] where it differs from the phase
 * before, the arrangements it needs declared beside the DISTRIBUTE
 * (name_r2, ...). One DISTRIBUTE of one template or array, in the main
 * program; NULL with the reason in err otherwise, or when every phase has
 * the same mapping. */
char *remap_phased_source(const SrcFile *f, const Node *file, const Remap *const *maps,
                          const int *first_line, int nphase, int fixed, const char *comment,
                          char *err, size_t errlen);

#endif
