/* hpfpredict.c - the hpfpredict program: options, then the stages — front
 * end and SPMD lowering (as hpfc), the abstraction parse (AAG/SAAG), the
 * functional interpreter and the interpretation engine — and the report,
 * or the answers to the queries on it (profiles, lines, the annotated
 * listing, callgrind; doc/outputs.md). */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "aag.h"
#include "engine.h"
#include "fi.h"
#include "frontend.h"
#include "report.h"
#include "sag.h"
#include "spmd.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/hpfpredict"
#endif

enum { MAX_NP = 4194304, MAX_POINTS = 256 };

static void usage(FILE *out)
{
    fputs("Usage: hpfpredict [OPTION]... FILE\n"
          "Predict the execution time of an HPF/Fortran 90D program on a distributed-memory\n"
          "machine described by a System Abstraction Graph, without running it.\n"
          "\n"
          "  -sag FILE|NAME, --sag=FILE|NAME\n"
          "                           the machine: a .sag file, or a NAME looked up in the\n"
          "                           installed sag/ directory (default: the built-in\n"
          "                           iPSC/860, ipsc860)\n"
          "  -np N[,N...]             processors (default: the SAG's node count); a list\n"
          "                           predicts for each\n"
          "  -D NAME=VALUE            the value of a PARAMETER, or of a variable: held at\n"
          "                           that value, its assignments and READs ignored\n"
          "      --input FILE         data for READ statements (list-directed)\n"
          "      --unroll             interpret loops that compute critical values from\n"
          "                           arrays, iteration by iteration (instead of asking\n"
          "                           for the values with -D)\n"
          "      --max-steps N        budget of the functional interpreter (element\n"
          "                           operations; default 1000000000)\n"
          "      --load LIB           a shared library holding EXTERNAL functions\n"
          "      --granularity N      consecutive Seq statements clustered in one AAU\n"
          "                           (default 1: one each)\n"
          "      --overlap F          fraction of communication overlapped with\n"
          "                           computation, 0..1 (default: the SAG's comm.overlap, 0)\n"
          "      --dump-aag           print the AAG (stable text) and stop\n"
          "      --dump-saag          print the SAAG and its communication table, and stop\n"
          "      --dot FILE           write the SAAG as a Graphviz digraph\n"
          "      --profile            the whole program's profile: mean, slowest and\n"
          "                           fastest processor, imbalance, the four parts\n"
          "      --aau ID             the profile of AAU ID (its own time) and of its\n"
          "                           sub-AAG (the AAU and everything below it)\n"
          "      --line N             the metrics of source line N and its AAUs\n"
          "      --lines A-B          the metrics of lines A to B, line by line\n"
          "      --annotate           the source listing with the metrics of each line\n"
          "      --callgrind FILE     write per-line costs in the callgrind format\n"
          "                           (callgrind_annotate, KCachegrind)\n"
          "      --format=text|json|csv\n"
          "                           the report's form (default text)\n"
          "      --classes=WHEN       interpret processors that behave alike once, as one\n"
          "                           class: auto (above 4096 processors), always, never\n"
          "  -fdiagnostics-format=text|json\n"
          "                           how diagnostics are written on standard error\n"
          "  -h, --help               show this help and exit\n"
          "  -V, --version            show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on errors in the input or the command line\n"
          "(missing critical values included), 4 on an internal error.\n"
          "Report bugs to the hpfpredict project.\n", out);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fputs("hpfpredict: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'hpfpredict --help' for more information.\n", stderr);
    return 1;
}

typedef struct {
    const char *path;
    const char *sag_arg;
    int np[MAX_POINTS];
    int nnp;
    Define *defs;
    int ndefs;
    const char *input;
    int unroll;
    long long max_steps;
    const char **libs;
    int nlibs;
    int granularity;
    double overlap;
    int have_overlap;
    int dump_aag, dump_saag;
    const char *dot;
    int format;                /* FMT_* */
    int classes;
    DiagFormat diag_format;
    /* queries (the --aau IDs are checked against the AAG, the lines against
       the file) */
    int profile, annotate;
    int *aau;
    int naau;
    int *line;
    int nline;
    LineRange *range;
    int nrange;
    const char *callgrind;
    FILE *cg;                  /* opened before any work, removed on failure */
    char *cmd;                 /* the command line, for the callgrind header */
} Options;

enum { FMT_TEXT, FMT_JSON, FMT_CSV };

static int parse_np(Options *o, const char *arg)
{
    const char *s = arg;
    while (*s) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > MAX_NP || (*end && *end != ','))
            return bad_usage("-np expects processor counts from 1 to 4194304, not '%s'", arg);
        if (o->nnp == MAX_POINTS)
            return bad_usage("too many processor counts in '%s'", arg);
        o->np[o->nnp++] = (int)v;
        s = *end ? end + 1 : end;
    }
    return o->nnp ? 0 : bad_usage("-np expects processor counts, not '%s'", arg);
}

/* A positive number filling all of s up to `stop` (NUL or a character). */
static int parse_pos(const char *s, char stop, long *v, const char **rest)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtol(s, &end, 10);
    if (errno || *v < 1 || *v > 100000000 || *end != stop)
        return -1;
    *rest = end;
    return 0;
}

static void push_int(int **v, int *n, int x)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = x;
}

/* The SAG: a file, a NAME.sag in the installed directory, or built in. */
static SagGraph *load_sag(const char *arg, char **shown)
{
    const char *name = arg ? arg : "ipsc860";
    if (arg && (strchr(arg, '/') || strstr(arg, ".sag") || access(arg, R_OK) == 0)) {
        *shown = xstrdup(arg);
        if (access(arg, R_OK) != 0) {
            fprintf(stderr, "hpfpredict: error: cannot read '%s': %s\n", arg, strerror(errno));
            return NULL;
        }
        return sag_load_file(arg, stderr, NULL);
    }
    char *inst = xmalloc(strlen(PKGDATADIR) + strlen(name) + 16);
    sprintf(inst, "%s/sag/%s.sag", PKGDATADIR, name);
    if (access(inst, R_OK) == 0) {
        *shown = xstrdup(name);
        SagGraph *g = sag_load_file(inst, stderr, NULL);
        free(inst);
        return g;
    }
    free(inst);
    const char *text = sag_builtin(name);
    if (!text) {
        fprintf(stderr, "hpfpredict: error: no machine description '%s': not a file, not in "
                "%s/sag, not built in (built in: ipsc860)\n", name, PKGDATADIR);
        return NULL;
    }
    *shown = xstrdup(name);
    return sag_load_string(name, text, stderr, NULL);
}

static int parse_options(Options *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"sag", required_argument, NULL, 's'},
        {"np", required_argument, NULL, 'n'},
        {"input", required_argument, NULL, 'I'},
        {"unroll", no_argument, NULL, 'u'},
        {"max-steps", required_argument, NULL, 'M'},
        {"load", required_argument, NULL, 'L'},
        {"granularity", required_argument, NULL, 'g'},
        {"overlap", required_argument, NULL, 'O'},
        {"dump-aag", no_argument, NULL, 'A'},
        {"dump-saag", no_argument, NULL, 'S'},
        {"dot", required_argument, NULL, 'G'},
        {"format", required_argument, NULL, 'F'},
        {"classes", required_argument, NULL, 'K'},
        {"profile", no_argument, NULL, 'P'},
        {"aau", required_argument, NULL, 'a'},
        {"line", required_argument, NULL, 'l'},
        {"lines", required_argument, NULL, 'r'},
        {"annotate", no_argument, NULL, 'N'},
        {"callgrind", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    /* -sag and -np are written with one dash, as in the paper's tool */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "-sag"))
            argv[i] = "--sag";
        else if (!strcmp(argv[i], "-np"))
            argv[i] = "--np";
    }
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hVD:f:", longopts, NULL)) != -1) {
        switch (c) {
        case 's': o->sag_arg = optarg; break;
        case 'n':
            if (parse_np(o, optarg))
                return 1;
            break;
        case 'I': o->input = optarg; break;
        case 'u': o->unroll = 1; break;
        case 'M': {
            char *end;
            o->max_steps = strtoll(optarg, &end, 10);
            if (*end || o->max_steps < 1)
                return bad_usage("--max-steps expects a positive count, not '%s'", optarg);
            break;
        }
        case 'L':
            o->libs = xrealloc(o->libs, (size_t)(o->nlibs + 1) * sizeof *o->libs);
            o->libs[o->nlibs++] = optarg;
            break;
        case 'g': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 1 || v > 1000000)
                return bad_usage("--granularity expects a count of statements, not '%s'", optarg);
            o->granularity = (int)v;
            break;
        }
        case 'O': {
            char *end;
            o->overlap = strtod(optarg, &end);
            if (*end || end == optarg || !(o->overlap >= 0 && o->overlap <= 1))
                return bad_usage("--overlap expects a fraction from 0 to 1, not '%s'", optarg);
            o->have_overlap = 1;
            break;
        }
        case 'K':
            if (!strcmp(optarg, "auto"))
                o->classes = ENGINE_CLASSES_AUTO;
            else if (!strcmp(optarg, "always"))
                o->classes = ENGINE_CLASSES_ALWAYS;
            else if (!strcmp(optarg, "never"))
                o->classes = ENGINE_CLASSES_NEVER;
            else
                return bad_usage("--classes expects auto, always or never, not '%s'", optarg);
            break;
        case 'A': o->dump_aag = 1; break;
        case 'S': o->dump_saag = 1; break;
        case 'G': o->dot = optarg; break;
        case 'F':
            if (!strcmp(optarg, "json"))
                o->format = FMT_JSON;
            else if (!strcmp(optarg, "text"))
                o->format = FMT_TEXT;
            else if (!strcmp(optarg, "csv"))
                o->format = FMT_CSV;
            else
                return bad_usage("--format expects text, json or csv, not '%s'", optarg);
            break;
        case 'P': o->profile = 1; break;
        case 'N': o->annotate = 1; break;
        case 'C': o->callgrind = optarg; break;
        case 'a': {
            long v;
            const char *rest;
            if (parse_pos(optarg, '\0', &v, &rest))
                return bad_usage("--aau expects the number of an AAU (from 1; --dump-aag lists "
                                 "them), not '%s'", optarg);
            push_int(&o->aau, &o->naau, (int)v);
            break;
        }
        case 'l': {
            long v;
            const char *rest;
            if (parse_pos(optarg, '\0', &v, &rest))
                return bad_usage("--line expects a line number from 1, not '%s'", optarg);
            push_int(&o->line, &o->nline, (int)v);
            break;
        }
        case 'r': {
            long a, b;
            const char *rest;
            if (parse_pos(optarg, '-', &a, &rest) || parse_pos(rest + 1, '\0', &b, &rest)
                || b < a)
                return bad_usage("--lines expects a range A-B of line numbers, 1 <= A <= B, "
                                 "not '%s'", optarg);
            o->range = xrealloc(o->range, (size_t)(o->nrange + 1) * sizeof *o->range);
            o->range[o->nrange++] = (LineRange){(int)a, (int)b};
            break;
        }
        case 'h': usage(stdout); exit(0);
        case 'V':
            printf("hpfpredict (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            exit(0);
        case 'D': {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || !eq[1])
                return bad_usage("-D expects NAME=VALUE, not '%s'", optarg);
            o->defs = xrealloc(o->defs, (size_t)(o->ndefs + 1) * sizeof *o->defs);
            *eq = '\0';
            for (char *s = optarg; *s; s++)
                if (*s >= 'A' && *s <= 'Z')
                    *s = (char)(*s - 'A' + 'a');
            o->defs[o->ndefs++] = (Define){optarg, eq + 1, 0};
            break;
        }
        case 'f':
            if (!strcmp(optarg, "diagnostics-format=text"))
                o->diag_format = DIAG_TEXT;
            else if (!strcmp(optarg, "diagnostics-format=json"))
                o->diag_format = DIAG_JSON;
            else
                return bad_usage("unknown option '-f%s'", optarg);
            break;
        case ':':
            return bad_usage("option '%s' needs an argument", argv[optind - 1]);
        default:
            return bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return bad_usage("%s", optind >= argc ? "no input file" : "only one input file at a time");
    o->path = argv[optind];
    if (o->callgrind && o->nnp > 1)
        return bad_usage("--callgrind writes the profile of one prediction: give one processor "
                         "count with -np, not '%s'", o->callgrind);
    return 0;
}

/* Query lines beyond the end of the file are refused before any work. */
static int check_lines(const Options *o, const SrcFile *f)
{
    int n = f->nlines;
    if (f->len && f->text[f->len - 1] == '\n')
        n--;
    for (int i = 0; i < o->nline; i++)
        if (o->line[i] > n) {
            fprintf(stderr, "hpfpredict: error: --line %d: '%s' has %d line%s\n", o->line[i],
                    o->path, n, n == 1 ? "" : "s");
            return 1;
        }
    for (int i = 0; i < o->nrange; i++)
        if (o->range[i].last > n) {
            fprintf(stderr, "hpfpredict: error: --lines %d-%d: '%s' has %d line%s\n",
                    o->range[i].first, o->range[i].last, o->path, n, n == 1 ? "" : "s");
            return 1;
        }
    return 0;
}

/* The command line as typed (the -sag and -np spellings included), for the
 * callgrind header. */
static char *command_line(int argc, char **argv)
{
    size_t n = 16;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    char *s = xmalloc(n), *p = s;
    p += sprintf(p, "hpfpredict");
    for (int i = 1; i < argc; i++)
        p += sprintf(p, " %s", argv[i]);
    return s;
}

/* The location of the first character of a source line. */
static Loc line_loc(const SrcFile *f, int line)
{
    Loc l = {f, line, 1, line, 1};
    if (line >= 1 && line <= f->nlines) {
        const char *s = f->text + f->line_off[line];
        while (*s == ' ' || *s == '\t') {
            s++;
            l.col++;
        }
        l.ecol = l.col;
    }
    return l;
}

/* Critical scalars computed from arrays inside a loop (a convergence test)
 * need the user's decision: their value with -D, or the loop interpreted
 * iteration by iteration with --unroll (the paper's choice, section 4.2). */
static int undecided(const Aag *g, const SrcFile *f, Diag *d)
{
    int n = 0;
    for (int i = 0; i < g->ncrit; i++) {
        const CritVar *c = &g->crit[i];
        /* a scalar the program tests (not one that only feeds another):
           critical arrays computed in a loop (masks, index vectors) have no
           value to give, their loops are interpreted iteration by iteration */
        if (!c->in_loop || !c->by_array || c->held || !c->sym || c->sym->rank
            || !strncmp(c->why, "feeds ", 6))
            continue;
        diag_error(d, line_loc(f, c->line),
                   "'%s' (the %s here) is computed from arrays inside a loop; give its value "
                   "with -D %s=VALUE, or interpret the loop iteration by iteration with --unroll",
                   c->name, c->why, c->name);
        n++;
    }
    return n;
}

/* One prediction: the whole pipeline for one processor count. */
static int predict(const Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
                   int np, int first, Diag *diag)
{
    Arena *arena = arena_new("compilation");
    for (int i = 0; i < o->ndefs; i++)
        o->defs[i].used = 0;
    Node *ast = frontend_compile(f, src_form_of(o->path), arena, diag, o->defs, o->ndefs);
    SpProgram *sp = ast ? spmd_lower(ast, arena, diag) : NULL;
    int status = 1;
    if (!sp) {
        arena_free(arena);
        return 1;
    }
    /* -D names that are not PARAMETERs are variables held at a value */
    FiDefine *vdefs = xcalloc((size_t)o->ndefs + 1, sizeof *vdefs);
    const char **held = xcalloc((size_t)o->ndefs + 1, sizeof *held);
    int nv = 0;
    for (int i = 0; i < o->ndefs; i++)
        if (!o->defs[i].used) {
            vdefs[nv] = (FiDefine){o->defs[i].name, o->defs[i].value};
            held[nv++] = o->defs[i].name;
        }
    AagOptions ao = {o->granularity, held, nv};
    Aag *g = aag_build(sp, &ao);
    if (o->dot && first) {
        FILE *out = fopen(o->dot, "w");
        if (!out) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", o->dot, strerror(errno));
            goto done;
        }
        aag_dot(out, g);
        if (fclose(out) != 0) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->dot);
            goto done;
        }
    }
    if (o->dump_aag || o->dump_saag) {
        if (first) {
            if (o->dump_saag)
                saag_dump(stdout, g);
            else
                aag_dump(stdout, g);
        }
        status = 0;
        goto done;
    }
    for (int i = 0; i < o->naau; i++)
        if (o->aau[i] > g->naau) {
            fprintf(stderr, "hpfpredict: error: --aau %d: the program has %d AAUs (--dump-aag "
                    "lists them)\n", o->aau[i], g->naau);
            goto done;
        }
    if (!o->unroll && undecided(g, f, diag))
        goto done;
    FiOptions fo = {sp, vdefs, nv, o->input, isatty(0) && isatty(2), o->max_steps, o->libs,
                    o->nlibs};
    const SagUnit *node = engine_node_unit(sag);
    EngineOptions eo = {np, o->have_overlap ? o->overlap : sag_value(node, "comm.overlap", 0),
                        o->classes, engine_classes_new(), NULL};
    EngineResult r;
    Fi *fi;
    int rc;
    /* again while the processor classes are refined (engine.h) */
    do {
        fi = fi_new(&fo, diag);
        if (!fi) {
            engine_classes_free(eo.cls);
            goto done;
        }
        fi_set_nprocs(fi, np);
        rc = engine_run(g, fi, sag, &eo, &r);
        if (rc == 1)
            fi_free(fi);
    } while (rc == 1);
    engine_classes_free(eo.cls);
    if (rc != 0) {
        fi_report(fi, diag);
        if (!diag->nerrors)
            diag_error(diag, line_loc(f, 0), "interpretation stopped");
    } else {
        ReportQuery q = {o->profile, o->aau, o->naau, o->line, o->nline, o->range, o->nrange,
                         o->annotate};
        Report rp = {o->path, sag_name, g, &r, f, &q};
        if (o->format == FMT_JSON)
            report_json(stdout, &rp, o->nnp > 1 ? 2 : 0);
        else if (o->format == FMT_CSV) {
            if (first)     /* one header for a sweep, none when nothing follows */
                report_csv_header(stdout);
            report_csv(stdout, &rp);
        }
        else {
            if (!first)
                putchar('\n');
            if (report_has_query(&q))
                report_query_text(stdout, &rp);
            else
                report_text(stdout, &rp);
        }
        if (o->cg && first)
            report_callgrind(o->cg, &rp, o->cmd);
        status = 0;
    }
    fi_free(fi);
done:
    aag_free(g);
    free(vdefs);
    free(held);
    arena_free(arena);
    return status;
}

static void free_options(Options *o)
{
    free(o->defs);
    free(o->libs);
    free(o->aau);
    free(o->line);
    free(o->range);
    free(o->cmd);
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* The functional interpreter allocates and frees vectors of every
       iteration point, statement after statement: large blocks stay in the
       heap for the next ones instead of going back to the system and
       coming back as fresh (zero-filled, page-faulting) pages. */
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
    Options o = {0};
    o.granularity = 1;
    o.cmd = command_line(argc, argv);
    if (parse_options(&o, argc, argv)) {
        free_options(&o);
        return 1;
    }
    Diag diag;
    diag_init(&diag, stderr);
    diag.format = o.diag_format;
    char *sag_name = NULL;
    SagGraph *sag = load_sag(o.sag_arg, &sag_name);
    if (!sag) {
        free(sag_name);
        free_options(&o);
        return 1;
    }
    char *err = NULL;
    SrcFile *f = srcfile_read(o.path, &err);
    if (!f) {
        fprintf(stderr, "hpfpredict: error: cannot read '%s': %s\n", o.path, err);
        free(err);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return 1;
    }
    /* the callgrind file is opened first, so that a path that cannot be
       written stops the run before the work */
    int bad = check_lines(&o, f);
    if (!bad && o.callgrind && !o.dump_aag && !o.dump_saag) {
        o.cg = fopen(o.callgrind, "w");
        if (!o.cg) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", o.callgrind,
                    strerror(errno));
            bad = 1;
        }
    }
    if (bad) {
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return 1;
    }
    if (!o.nnp)
        o.np[o.nnp++] = sag_unit_count(engine_node_unit(sag));
    int status = 0;
    int json = o.format == FMT_JSON && !o.dump_aag && !o.dump_saag;
    if (json && o.nnp > 1)
        puts("[");
    for (int i = 0; i < o.nnp && !status; i++) {
        if (json && i)
            puts(",");
        status = predict(&o, f, sag, sag_name, o.np[i], i == 0, &diag);
        if (json && !status && o.nnp == 1)
            putchar('\n');
    }
    if (json && o.nnp > 1 && !status)
        puts("\n]");
    diag_finish(&diag);
    if (diag.nerrors)
        status = 1;
    if (fflush(stdout) != 0) {
        fputs("hpfpredict: error: cannot write the output\n", stderr);
        status = 1;
    }
    if (o.cg) {
        if ((ferror(o.cg) | fclose(o.cg)) != 0 && !status) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o.callgrind);
            status = 1;
        }
        if (status)
            remove(o.callgrind);   /* no half-written profile left behind */
    }
    srcfile_free(f);
    sag_free(sag);
    free(sag_name);
    free_options(&o);
    return status;
}
