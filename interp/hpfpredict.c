/* hpfpredict.c - the hpfpredict program: options, then the stages — front
 * end and SPMD lowering (as hpfc), the abstraction parse (AAG/SAAG), the
 * functional interpreter and the interpretation engine — and the report,
 * or the answers to the queries on it (profiles, lines, the annotated
 * listing, callgrind; doc/outputs.md), and the trace of the processors'
 * timelines (doc/traces.md). The stages are in stages.c, which the
 * interactive mode (interact.c) drives too. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "fi.h"
#include "forecast_run.h"
#include "phases.h"
#include "probe.h"
#include "interact.h"
#include "plot.h"
#include "html.h"
#include "mapsearch.h"

/* the long options without a short one */
enum { OPT_BBV = 256, OPT_INTERVAL, OPT_PHASES, OPT_MAXK, OPT_SEED, OPT_EARLY, OPT_SAVE_PHASES,
       OPT_PROBE_PREDICT, OPT_REF, OPT_REF_TIME, OPT_PROBE_BUDGET, OPT_PROBE_SPAN, OPT_HTML,
       OPT_COMPARE_LIMIT };

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/hpfpredict"
#endif

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
          "                           sweeps: one prediction for each\n"
          "  -D NAME=VALUE[,VALUE...] the value of a PARAMETER, or of a variable: held at\n"
          "                           that value, its assignments and READs ignored; a\n"
          "                           list sweeps\n"
          "      --set PARAM=VALUE    an experiment on the machine, not the program:\n"
          "                           cpu.speed=K, net.bandwidth=K, net.load=X,\n"
          "                           comm.overlap=F, or any SAG parameter (NAME=VALUE,\n"
          "                           NAME*=K); repeatable\n"
          "  -floop-reorder, -finline the node compiler's loop interchange in FORALL\n"
          "                           nests, its inline expansion of leaf procedures\n"
          "                           (default: off; -fno-... turns them off)\n"
          "  -fforall-nest=written    a FORALL's loops nested as written, the first\n"
          "                           index outermost (the paper's compiler); default\n"
          "                           -fforall-nest=hpfc, the first innermost\n"
          "      --input FILE         data for READ statements (list-directed)\n"
          "      --trips LINE=N|max   the loop starting on LINE runs N times, or as many\n"
          "                           as its bounds allow (max): its convergence test is\n"
          "                           not interpreted; repeatable\n"
          "      --unroll             interpret every iteration of the loops whose data\n"
          "                           decide their costs (a WHERE mask in a time loop),\n"
          "                           instead of extrapolating once their iterations\n"
          "                           repeat\n"
          "      --audit              check the prediction: every statement the program's\n"
          "                           sequential run executes was charged (exit 1, naming\n"
          "                           the statements, otherwise)\n"
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
          "      --trace FILE         write the timelines of the processors to FILE, a\n"
          "                           trace for a visualizer (one -np, at most 4096)\n"
          "      --trace-format=perfetto|paraver|picl|otf2\n"
          "                           the trace's form (default: from FILE's suffix,\n"
          "                           .json perfetto, .prv paraver, .trf picl, .otf2\n"
          "                           otf2 (when built with libotf2); else perfetto)\n"
          "      --format=text|json|csv\n"
          "                           the report's form (default text); a sweep of\n"
          "                           several predictions is one table\n"
          "      --plot FILE          write the sweep as an SVG plot: time against\n"
          "                           processors, and the parts of each prediction\n"
          "      --html FILE          write the report as one self-contained HTML page:\n"
          "                           summary, source with each line's time, AAG,\n"
          "                           processors, timeline (--trace), sweep or ranking\n"
          "      --compare            search the mappings of the program's DISTRIBUTE\n"
          "                           directives (formats, CYCLIC(k) and BLOCK(k),\n"
          "                           processor grids) and rank the fastest, with the\n"
          "                           directives of the best\n"
          "      --compare-limit N    rank the N fastest (default 10); a mapping that\n"
          "                           cannot be among them is not predicted in full\n"
          "      --map SPEC           predict under another mapping, e.g.\n"
          "                           'temp=BLOCK,*' or 'temp=BLOCK,BLOCK@2x2', or an\n"
          "                           ALIGN's 'a=(*,i) WITH temp(i)' (as hpfc)\n"
          "      --rue                print the resource usage equations: each phase's\n"
          "                           computation, communication and I/O as expressions\n"
          "                           of its PARAMETERs and P, derived from an\n"
          "                           interpretation at the -np and -D given\n"
          "      --forecast           evaluate the equations (derived at the program's\n"
          "                           sizes on 4 processors) for every -np and -D value\n"
          "                           instead of interpreting; --plot draws them\n"
          "      --sweet-spot         each phase's processor count of least forecast\n"
          "                           time, and where communication overtakes\n"
          "      --rue-check          the equations against full interpretations at\n"
          "                           every -np and -D value: counts, waiting, imbalance\n"
          "      --fit FILE           the equations' constants fitted to measured runs\n"
          "                           (profiles written under HPFRT_PROFILE), or read\n"
          "                           from a fit saved before; repeatable\n"
          "      --save-fit FILE      save the constants --fit fitted\n"
          "      --bbv FILE           write the interval vectors of the interpretation in\n"
          "                           SimPoint's format: each AAU's operations per interval\n"
          "      --interval N         operations an interval (default: chosen so that the\n"
          "                           run has 1024 to 2048 of them)\n"
          "      --phases             the program's phases: the intervals clustered, each\n"
          "                           phase's weight and representative interval\n"
          "      --maxk K             the most phases tried (default 10)\n"
          "      --seed S             the seed of the projection and of k-means (default 1)\n"
          "      --early              representatives early in the run (a shorter probe)\n"
          "      --probe-span K       a representative and up to K - 1 intervals of its\n"
          "                           phase after it timed together (default: a hundredth\n"
          "                           of the run, at least 4, fewer within the budget)\n"
          "      --probe-budget F     representatives probed end within this fraction of\n"
          "                           the run (default 0.1); the other phases' times are\n"
          "                           estimated\n"
          "      --save-phases FILE   the phases and the probe's marks as JSON, for\n"
          "                           HPFRT_PROBE=FILE in the SPMD program's run\n"
          "      --probe-predict FILE the run's time from a probe's times (the CSV the\n"
          "                           SPMD program writes under HPFRT_PROBE)\n"
          "      --ref FILE, --ref-time T\n"
          "                           a reference machine's probe times and measured\n"
          "                           time: the prediction by their ratio\n"
          "      --classes=WHEN       interpret processors that behave alike once, as one\n"
          "                           class: auto (above 4096 processors), always, never\n"
          "  -i, --interactive        a prompt where the report and its queries are asked\n"
          "                           for, and the processor count and -D values changed\n"
          "                           ('help' lists the commands)\n"
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
    return usage_error("hpfpredict", fmt, arg);
}

static int parse_np(Options *o, const char *arg)
{
    const char *s = arg;
    while (*s) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > MAX_NP || (*end && *end != ',') ||
            (*end == ',' && !end[1]))
            return bad_usage("-np expects processor counts from 1 to 4194304, not '%s'", arg);
        if (o->nnp == MAX_POINTS)
            return bad_usage("too many processor counts in '%s'", arg);
        o->np[o->nnp++] = (int)v;
        s = *end ? end + 1 : end;
    }
    return o->nnp ? 0 : bad_usage("-np expects processor counts, not '%s'", arg);
}

static void push_int(int **v, int *n, int x)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = x;
}

/* The SAG: a file, a NAME.sag in the installed directory, or built in. */
static SagGraph *load_sag(const char *arg, char **shown, Diag *d)
{
    const char *name = arg ? arg : "ipsc860";
    if (arg && (strchr(arg, '/') || strstr(arg, ".sag") || access(arg, R_OK) == 0)) {
        *shown = xstrdup(arg);
        if (access(arg, R_OK) != 0) {
            fprintf(stderr, "hpfpredict: error: cannot read '%s': %s\n", arg, strerror(errno));
            return NULL;
        }
        return sag_load_diag(arg, NULL, arg, d);
    }
    char *inst = xmalloc(strlen(PKGDATADIR) + strlen(name) + 16);
    sprintf(inst, "%s/sag/%s.sag", PKGDATADIR, name);
    if (access(inst, R_OK) == 0) {
        *shown = xstrdup(name);
        SagGraph *g = sag_load_diag(inst, NULL, inst, d);
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
    return sag_load_diag(name, text, NULL, d);
}

/* The trace's form: --trace-format, or else FILE's suffix. */
static int trace_format_of(const char *path)
{
    static const struct { const char *suffix; int fmt; } by_suffix[] = {
        {".json", TRACE_PERFETTO}, {".prv", TRACE_PARAVER}, {".trf", TRACE_PICL},
        {".otf2", TRACE_OTF2},
    };
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof by_suffix / sizeof *by_suffix; i++) {
        size_t k = strlen(by_suffix[i].suffix);
        if (n > k && str_ieq(path + n - k, by_suffix[i].suffix))
            return by_suffix[i].fmt;
    }
    return TRACE_PERFETTO;
}

static int check_trace(Options *o)
{
    if (o->trace_fmt >= 0 && !o->trace)
        return bad_usage("%s", "--trace-format needs --trace FILE, the file to write");
    if (!o->trace)
        return 0;
    if (!*o->trace)
        return bad_usage("%s", "--trace expects the name of the file to write");
    if (o->trace_fmt < 0) {
        o->trace_fmt = trace_format_of(o->trace);
        if (!trace_format_built(o->trace_fmt))
            return bad_usage("--trace '%s' asks for an OTF2 archive (.otf2), but this "
                             "hpfpredict was built without OTF2 (configure found no libotf2); "
                             "name another form with --trace-format", o->trace);
    }
    if (!trace_format_built(o->trace_fmt))
        return bad_usage("%s", "--trace-format=otf2: this hpfpredict was built without OTF2 "
                         "(configure found no libotf2)");
    if (o->nnp > 1)
        return bad_usage("--trace '%s' holds the timelines of one prediction: give one "
                         "processor count with -np", o->trace);
    return 0;
}

/* -i answers the queries at its prompt, for one processor count at a time. */
static int check_interactive(const Options *o)
{
    static const char *const cmd[][2] = {
        {"--profile", "profile"}, {"--aau", "aau ID"}, {"--line", "line N"},
        {"--lines", "lines A-B"}, {"--annotate", "annotate"}, {"--dump-aag", "aag"},
        {"--dump-saag", "saag"},
    };
    if (!o->interactive)
        return 0;
    if (o->nnp > 1)
        return bad_usage("%s", "-i predicts for one processor count at a time (give one with "
                         "-np; 'np N' at the prompt changes it)");
    if (o->callgrind)
        return bad_usage("--callgrind '%s' is not available with -i", o->callgrind);
    int k = o->profile ? 0 : o->naau ? 1 : o->nline ? 2 : o->nrange ? 3 : o->annotate ? 4
          : o->dump_aag ? 5 : o->dump_saag ? 6 : -1;
    if (k < 0)
        return 0;
    char msg[160];
    snprintf(msg, sizeof msg, "with -i, ask at the prompt: '%s' instead of %s", cmd[k][1],
             cmd[k][0]);
    return bad_usage("%s", msg);
}

/* The values of -D NAME=V1,V2,... (split in place), for defs[def]; the
 * first is its value until the sweep sets the others. */
/* The values of a comma-separated list, cut in place, into *v (*n of
 * them); -1 (and nothing in *v) when one is empty. */
static int split_list(char *list, char ***v, int *n)
{
    *v = NULL;
    *n = 0;
    for (char *x = list;;) {
        char *comma = strchr(x, ',');
        if (comma)
            *comma = '\0';
        if (!*x) {
            free(*v);
            *v = NULL;
            *n = 0;
            return -1;
        }
        *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
        (*v)[(*n)++] = x;
        if (!comma)
            return 0;
        x = comma + 1;
    }
}

static int parse_list(Options *o, int def, char *list)
{
    DefList l = {def, 0, NULL};
    if (split_list(list, &l.v, &l.n))
        return bad_usage("-D %s: a list of values expects a value between its commas",
                         o->defs[def].name);
    o->dlist = xrealloc(o->dlist, (size_t)(o->ndlist + 1) * sizeof *o->dlist);
    o->dlist[o->ndlist++] = l;
    return 0;
}

/* The values of --set NAME=V1,V2,... (a copy cut in place); the sweep
 * takes each in turn. */
static int parse_set_list(Options *o, const char *arg)
{
    SetList l = {xstrdup(arg), NULL, 0, 0, NULL};
    char *eq = strchr(l.text, '=');
    if (!eq || eq == l.text) {
        free(l.text);
        return bad_usage("--set '%s' expects NAME=VALUE or NAME=V1,V2,...", arg);
    }
    *eq = '\0';
    l.key = l.text;
    if (split_list(eq + 1, &l.v, &l.n)) {
        free(l.text);
        return bad_usage("--set %s: a list of values expects a value between its commas", arg);
    }
    o->slist = xrealloc(o->slist, (size_t)(o->nslist + 1) * sizeof *o->slist);
    o->slist[o->nslist++] = l;
    return 0;
}

/* --compare makes one ranking: of one processor count, for fixed values. */
static int check_compare(const Options *o)
{
    if (o->compare_limit && !o->compare)
        return bad_usage("%s", "--compare-limit limits --compare: give --compare too");
    if (!o->compare)
        return 0;
    const char *other = o->nnp > 1 ? "a list of -np values" : o->ndlist ? "a -D list"
                      : o->nslist ? "a --set list"
                      : o->map_spec ? "--map" : o->trace ? "--trace"
                      : o->callgrind ? "--callgrind" : o->plot ? "--plot"
                      : o->interactive ? "-i" : o->dump_aag ? "--dump-aag"
                      : o->dump_saag ? "--dump-saag" : o->profile || o->annotate || o->naau ||
                        o->nline || o->nrange ? "a query of the report" : NULL;
    if (other)
        return bad_usage("--compare ranks the mappings of one prediction: not with %s", other);
    return 0;
}

static int check_forecast(Options *o)
{
    if (o->save_fit && !o->nfits)
        return bad_usage("--save-fit %s saves what --fit fitted: give the runs with --fit",
                         o->save_fit);
    /* --fit alone: the equations with the constants fitted */
    if (o->nfits && !o->forecast && !o->sweet_spot && !o->rue_check)
        o->rue = 1;
    if (!o->rue && !o->forecast && !o->sweet_spot && !o->rue_check)
        return 0;
    const char *mode = o->rue ? "--rue" : o->forecast ? "--forecast"
                     : o->sweet_spot ? "--sweet-spot" : "--rue-check";
    if (o->rue + o->forecast + o->sweet_spot + o->rue_check > 1)
        return bad_usage("%s: give one of --rue, --forecast, --sweet-spot and --rue-check", mode);
    if (o->rue_check && o->plot)
        return bad_usage("--plot %s draws a forecast: with --forecast, not --rue-check", o->plot);
    const char *other = o->map_spec ? "--map" : o->trace ? "--trace"
                      : o->callgrind ? "--callgrind" : o->interactive ? "-i"
                      : o->compare ? "--compare" : o->dump_aag ? "--dump-aag"
                      : o->dump_saag ? "--dump-saag" : o->dot ? "--dot"
                      : o->html ? "--html"
                      : o->profile || o->annotate || o->naau || o->nline || o->nrange
                        ? "a query of the report" : o->format == FMT_CSV ? "--format=csv" : NULL;
    if (!other && o->nslist)
        other = "a --set list";
    char msg[160];
    if (other) {
        snprintf(msg, sizeof msg, "%s evaluates resource usage equations, not a prediction's "
                 "report: not with %s", mode, other);
        return bad_usage("%s", msg);
    }
    if (o->rue && (o->nnp > 1 || o->ndlist))
        return bad_usage("--rue derives the equations at one point: give one -np and one "
                         "value for each -D (%s)", o->nnp > 1 ? "-np has a list" : "-D has a list");
    if (o->rue && o->plot)
        return bad_usage("--plot %s draws a forecast: with --forecast, not --rue", o->plot);
    return 0;
}

/* The software probes' options (probe.c): one of --bbv, --phases,
 * --save-phases (together) or --probe-predict, alone. */
static int check_probe(const Options *o)
{
    int rec = o->bbv || o->phases || o->save_phases;
    if (o->nprobe_times > 1)
        return bad_usage("%s takes one file of probe times (the reference's with --ref)",
                         "--probe-predict");
    if (o->ref && !o->nprobe_times)
        return bad_usage("--ref %s is the reference machine's probe times: with "
                         "--probe-predict", o->ref);
    if (o->ref_time >= 0 && !o->ref)
        return bad_usage("%s gives the reference machine's measured time: with --ref",
                         "--ref-time");
    if (o->ref && o->ref_time < 0)
        return bad_usage("--ref %s: give the reference's measured full run with --ref-time "
                         "SECONDS (the paper's equation 2)", o->ref);
    if (!rec && !o->nprobe_times) {
        const char *lone = o->interval > 0 ? "--interval" : o->early ? "--early"
                         : o->maxk != 10 ? "--maxk" : o->seed != 1 ? "--seed"
                         : o->probe_budget != 0.1 ? "--probe-budget"
                         : o->probe_span ? "--probe-span" : NULL;
        if (lone)
            return bad_usage("%s belongs to --bbv, --phases or --save-phases", lone);
        return 0;
    }
    const char *mode = o->nprobe_times ? "--probe-predict" : o->bbv ? "--bbv"
                     : o->phases ? "--phases" : "--save-phases";
    if (rec && o->nprobe_times)
        return bad_usage("--probe-predict predicts from a probe's times: not with %s",
                         o->bbv ? "--bbv" : o->phases ? "--phases" : "--save-phases");
    const char *other = o->rue || o->forecast || o->sweet_spot || o->rue_check || o->nfits
                        ? "the forecasting options" : o->map_spec ? "--map"
                      : o->trace ? "--trace" : o->callgrind ? "--callgrind"
                      : o->interactive ? "-i" : o->compare ? "--compare"
                      : o->dump_aag ? "--dump-aag" : o->dump_saag ? "--dump-saag"
                      : o->dot ? "--dot" : o->plot ? "--plot"
                      : o->nsets || o->nslist ? "--set"
                      : o->html ? "--html"
                      : o->profile || o->annotate || o->naau || o->nline || o->nrange
                        ? "a query of the report" : o->format == FMT_CSV ? "--format=csv"
                      : o->nnp > 1 || o->ndlist || o->nslist
                        ? "a sweep (a list of -np, -D or --set values)"
                      : NULL;
    if (other) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s is about the program's phases, not a prediction's "
                 "report: not with %s", mode, other);
        return bad_usage("%s", msg);
    }
    return 0;
}

/* --html: with predictions made at once (a sweep, --compare), not with
 * the modes that make none; with --format=json the standard output is the
 * page's object, which holds every line (no query then). */
static int check_html(const Options *o)
{
    if (!o->html)
        return 0;
    if (!*o->html)
        return bad_usage("%s", "--html expects the name of the file to write");
    if (o->interactive)
        return bad_usage("--html %s writes the report of the predictions made at once: "
                         "not with -i", o->html);
    if (o->dump_aag || o->dump_saag)
        return bad_usage("--html is a prediction's report: not with %s",
                         o->dump_aag ? "--dump-aag" : "--dump-saag");
    if (o->format == FMT_JSON && (o->profile || o->annotate || o->naau || o->nline || o->nrange))
        return bad_usage("%s", "--format=json with --html prints the page's object, which "
                         "holds every line and AAU: not with a query of the report");
    return 0;
}

/* No output over an input: a typo in a file name must not destroy the
 * program, its machine or its data. */
static int check_outputs(const Options *o)
{
    const struct { const char *opt, *path; } out[] = {
        {"--plot", o->plot}, {"--html", o->html}, {"--callgrind", o->callgrind},
        {"--trace", o->trace}, {"--dot", o->dot}, {"--bbv", o->bbv},
        {"--save-phases", o->save_phases}, {"--save-fit", o->save_fit},
    };
    for (size_t i = 0; i < sizeof out / sizeof *out; i++) {
        const char *w = out[i].path;
        if (!w || !*w)
            continue;
        int hit = file_same(w, o->path) || file_same(w, o->sag_arg) || file_same(w, o->input)
                  || file_same(w, o->ref);
        for (int k = 0; k < o->nfits && !hit; k++)
            hit = file_same(w, o->fits[k]);
        for (int k = 0; k < o->nprobe_times && !hit; k++)
            hit = file_same(w, o->probe_times[k]);
        if (hit) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s %s is an input of this run: it would be overwritten; "
                     "name another file", out[i].opt, w);
            return bad_usage("%s", msg);
        }
    }
    return 0;
}

/* A whole number from lo to hi, all of arg, into *v; -1 (nothing set)
 * when it is not one. */
static int count_arg(const char *arg, long lo, long hi, int *v)
{
    char *end;
    long x = strtol(arg, &end, 10);
    if (*end || end == arg || x < lo || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

static int parse_options(Options *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"sag", required_argument, NULL, 's'},
        {"np", required_argument, NULL, 'n'},
        {"input", required_argument, NULL, 'I'},
        {"unroll", no_argument, NULL, 'u'},
        {"audit", no_argument, NULL, 'W'},
        {"trips", required_argument, NULL, 't'},
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
        {"trace", required_argument, NULL, 'T'},
        {"trace-format", required_argument, NULL, 'R'},
        {"interactive", no_argument, NULL, 'i'},
        {"set", required_argument, NULL, 'X'},
        {"plot", required_argument, NULL, 'Y'},
        {"compare", no_argument, NULL, 'c'},
        {"compare-limit", required_argument, NULL, OPT_COMPARE_LIMIT},
        {"map", required_argument, NULL, 'm'},
        {"rue", no_argument, NULL, 'E'},
        {"forecast", no_argument, NULL, 'Q'},
        {"sweet-spot", no_argument, NULL, 'w'},
        {"rue-check", no_argument, NULL, 'k'},
        {"fit", required_argument, NULL, 'j'},
        {"save-fit", required_argument, NULL, 'J'},
        {"bbv", required_argument, NULL, OPT_BBV},
        {"html", required_argument, NULL, OPT_HTML},
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"phases", no_argument, NULL, OPT_PHASES},
        {"maxk", required_argument, NULL, OPT_MAXK},
        {"seed", required_argument, NULL, OPT_SEED},
        {"early", no_argument, NULL, OPT_EARLY},
        {"probe-budget", required_argument, NULL, OPT_PROBE_BUDGET},
        {"probe-span", required_argument, NULL, OPT_PROBE_SPAN},
        {"save-phases", required_argument, NULL, OPT_SAVE_PHASES},
        {"probe-predict", required_argument, NULL, OPT_PROBE_PREDICT},
        {"ref", required_argument, NULL, OPT_REF},
        {"ref-time", required_argument, NULL, OPT_REF_TIME},
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
    while ((c = getopt_long(argc, argv, ":hViD:f:", longopts, NULL)) != -1) {
        switch (c) {
        case 's': o->sag_arg = optarg; break;
        case 'n':
            if (parse_np(o, optarg))
                return 1;
            break;
        case 'I': o->input = optarg; break;
        case 'u': o->unroll = 1; break;
        case 'W': o->audit = 1; break;
        case 't': {
            char *end;
            long line = strtol(optarg, &end, 10);
            long long n = ENGINE_TRIPS_MAX;
            if (end == optarg || *end != '=' || line < 1)
                return bad_usage("--trips expects LINE=N or LINE=max, not '%s'", optarg);
            if (strcmp(end + 1, "max")) {
                char *e2;
                n = strtoll(end + 1, &e2, 10);
                if (e2 == end + 1 || *e2 || n < 0)
                    return bad_usage("--trips expects LINE=N or LINE=max, not '%s'", optarg);
            }
            o->trips = xrealloc(o->trips, (size_t)(o->ntrips + 1) * sizeof *o->trips);
            o->trips[o->ntrips++] = (EngineTrips){(int)line, n};
            break;
        }
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
        case 'g':
            if (count_arg(optarg, 1, 1000000, &o->granularity))
                return bad_usage("--granularity expects a count of statements, not '%s'", optarg);
            break;
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
        case 'T': o->trace = optarg; break;
        case 'R':
            o->trace_fmt = trace_format(optarg);
            if (o->trace_fmt < 0)
                return bad_usage("--trace-format expects perfetto, paraver, picl or otf2, "
                                 "not '%s'", optarg);
            break;
        case 'i': o->interactive = 1; break;
        case 'X':
            if (strchr(optarg, ',')) {
                if (parse_set_list(o, optarg))
                    return 1;
                break;
            }
            o->sets = xrealloc(o->sets, (size_t)(o->nsets + 1) * sizeof *o->sets);
            o->sets[o->nsets++] = optarg;
            break;
        case 'Y': o->plot = optarg; break;
        case 'c': o->compare = 1; break;
        case 'm': o->map_spec = optarg; break;
        case 'E': o->rue = 1; break;
        case 'Q': o->forecast = 1; break;
        case 'w': o->sweet_spot = 1; break;
        case 'k': o->rue_check = 1; break;
        case 'j':
            o->fits = xrealloc(o->fits, (size_t)(o->nfits + 1) * sizeof *o->fits);
            o->fits[o->nfits++] = optarg;
            break;
        case 'J': o->save_fit = optarg; break;
        case OPT_BBV: o->bbv = optarg; break;
        case OPT_HTML: o->html = optarg; break;
        case OPT_INTERVAL: {
            char *end;
            o->interval = strtod(optarg, &end);
            if (*end || end == optarg || !(o->interval >= 1 && o->interval <= 1e18))
                return bad_usage("--interval expects a count of operations from 1, not '%s'",
                                 optarg);
            break;
        }
        case OPT_PHASES: o->phases = 1; break;
        case OPT_MAXK:
            if (count_arg(optarg, 1, PHASE_MAXK, &o->maxk))
                return bad_usage("--maxk expects a count of phases from 1 to 100, not '%s'",
                                 optarg);
            break;
        case OPT_SEED: {
            char *end;
            errno = 0;
            o->seed = strtoull(optarg, &end, 10);
            if (*end || end == optarg || errno || optarg[0] == '-')
                return bad_usage("--seed expects a non-negative integer, not '%s'", optarg);
            break;
        }
        case OPT_EARLY: o->early = 1; break;
        case OPT_COMPARE_LIMIT:
            if (count_arg(optarg, 1, REMAP_MAX_CANDIDATES, &o->compare_limit))
                return bad_usage("--compare-limit expects a count of mappings from 1 to 256, "
                                 "not '%s'", optarg);
            break;
        case OPT_PROBE_SPAN:
            if (count_arg(optarg, 1, 1000, &o->probe_span))
                return bad_usage("--probe-span expects a count of intervals from 1 to 1000, "
                                 "not '%s'", optarg);
            break;
        case OPT_PROBE_BUDGET: {
            char *end;
            o->probe_budget = strtod(optarg, &end);
            if (*end || end == optarg || !(o->probe_budget > 0 && o->probe_budget <= 1))
                return bad_usage("--probe-budget expects a fraction of the run, above 0 and at "
                                 "most 1, not '%s'", optarg);
            break;
        }
        case OPT_SAVE_PHASES: o->save_phases = optarg; break;
        case OPT_PROBE_PREDICT:
            o->probe_times = xrealloc(o->probe_times,
                                      (size_t)(o->nprobe_times + 1) * sizeof *o->probe_times);
            o->probe_times[o->nprobe_times++] = optarg;
            break;
        case OPT_REF: o->ref = optarg; break;
        case OPT_REF_TIME: {
            char *end;
            o->ref_time = strtod(optarg, &end);
            if (*end || end == optarg || !(o->ref_time > 0) || !isfinite(o->ref_time))
                return bad_usage("--ref-time expects the reference's measured time in "
                                 "seconds, above 0, not '%s'", optarg);
            break;
        }
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
            const char *why = define_add(&o->defs, &o->ndefs, optarg);
            if (why)
                return bad_usage(why, optarg);
            const char *val = o->defs[o->ndefs - 1].value;
            if (strchr(val, ',') && parse_list(o, o->ndefs - 1, (char *)val))
                return 1;
            break;
        }
        case 'f':
            if (!strcmp(optarg, "diagnostics-format=text"))
                o->diag_format = DIAG_TEXT;
            else if (!strcmp(optarg, "diagnostics-format=json"))
                o->diag_format = DIAG_JSON;
            else if (!strcmp(optarg, "loop-reorder") || !strcmp(optarg, "no-loop-reorder"))
                o->loop_reorder = optarg[0] != 'n';
            else if (!strcmp(optarg, "inline") || !strcmp(optarg, "no-inline"))
                o->inline_calls = optarg[0] != 'n';
            else if (!strcmp(optarg, "forall-nest=written") || !strcmp(optarg, "forall-nest=hpfc"))
                o->forall_written = optarg[12] == 'w';
            else
                return bad_usage("unknown option '-f%s'", optarg);
            break;
        default:
            return usage_getopt("hpfpredict", c, argv[optind - 1]);
        }
    }
    if (usage_one_input("hpfpredict", optind, argc))
        return 1;
    o->path = argv[optind];
    if (o->callgrind && o->nnp > 1)
        return bad_usage("--callgrind %s writes the profile of one prediction: give one "
                         "processor count with -np", o->callgrind);
    return check_trace(o) || check_interactive(o) || check_compare(o) || check_forecast(o) ||
           check_html(o) || check_outputs(o) ||
           check_probe(o);
}

/* Query lines beyond the end of the file are refused before any work. */
static int check_lines(const Options *o, const SrcFile *f)
{
    int n = source_nlines(f);
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

/* The queries of the command line. */
static ReportQuery query_of(const Options *o)
{
    return (ReportQuery){o->profile, o->aau, o->naau, o->line, o->nline, o->range, o->nrange,
                         o->annotate};
}

/* JSON objects of a sweep printed so far */
static int json_objects;
/* --html: the report page being gathered (NULL: none) */
static Html *page;

/* The mapping of --map SPEC for np processors, read against the program
 * as written. */
static int resolve_map(const Options *o, const SrcFile *f, int np, Remap *r, Diag *diag)
{
    Arena *a = arena_new("mapping");
    for (int i = 0; i < o->ndefs; i++)
        o->defs[i].used = 0;
    Node *ast = frontend_compile(f, src_form_of(o->path), a, diag, o->defs, o->ndefs);
    char err[512];
    int bad = !ast;
    if (ast && remap_parse(ast, o->map_spec, np, r, err, sizeof err) != 0) {
        fprintf(stderr, "hpfpredict: error: --map %s: %s\n", o->map_spec, err);
        bad = 1;
    }
    arena_free(a);
    return bad;
}

enum { CHANGED_LINES = 5 };    /* the lines --compare shows changed most */
enum { COMPARE_LIMIT = 10,     /* mappings --compare ranks exactly by default */
       COMPARE_EXHAUSTIVE = 256 };   /* joint spaces searched whole */

/* The lines whose mean time differs most between the best mapping b and
 * the program's own w, largest change first: their numbers in out[0 ..
 * returned count). */
static double line_change(const MapEval *b, const MapEval *w, int l)
{
    return fabs(b->line[l] - w->line[l]);
}

static int changed_lines(const MapEval *b, const MapEval *w, int *out, int max)
{
    int n = 0;
    for (int l = 1; l <= b->nline && l <= w->nline; l++) {
        double d = line_change(b, w, l);
        if (d <= 1e-12 * (w->line[l] > 0 ? w->line[l] : 1)
            || (n == max && d <= line_change(b, w, out[max - 1])))
            continue;
        int at = n < max ? n++ : max - 1;    /* in order of change, the smallest out */
        while (at > 0 && line_change(b, w, out[at - 1]) < d) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = l;
    }
    return n;
}

/* The program's own mapping in the search's list (always predicted). */
static const MapCand *own_cand(const MapSearch *ms)
{
    for (int i = 0; i < ms->n; i++)
        if (ms->c[i].map.own)
            return &ms->c[i];
    return NULL;
}

/* The rows of the ranking: the exact predictions, at most limit, then the
 * own mapping where it is not among them (rank 0 then), then those that
 * could not be predicted. Returns the count; rank[i] is row i's rank. */
static int ranking_rows(const MapSearch *ms, int limit, const MapCand **row, int *rank)
{
    int n = 0, own_in = 0;
    for (int i = 0; i < ms->n && i < limit && ms->c[i].state == MS_EXACT; i++) {
        own_in |= ms->c[i].map.own;
        rank[n] = i + 1;
        row[n++] = &ms->c[i];
    }
    if (!own_in && own_cand(ms)) {
        rank[n] = 0;
        row[n++] = own_cand(ms);
    }
    for (int i = 0; i < ms->n; i++)
        if (ms->c[i].state == MS_FAILED) {
            rank[n] = -1;
            row[n++] = &ms->c[i];
        }
    return n;
}

static int more_than_ranked(const MapSearch *ms, int limit)
{
    return ms->exact - (ms->exact < limit ? ms->exact : limit);
}

/* --compare's mappings per phase: the top-level loops of the main program,
 * each with its fastest mapping (by the sum of its lines' mean times), and
 * where they differ the program with a REDISTRIBUTE before each phase,
 * predicted. */
/* One candidate of --compare predicted (MapEvalFn). */
struct CompareCtx {
    const Options *o;
    const SrcFile *f;
    const SagGraph *sag;
    const char *sag_name;
    Diag *diag;
    FILE *quiet;
    EngineProcs *procs;        /* not NULL: the processors' times, for the page */
    EngineMemo *memo;          /* the gathers' pairs, from one mapping to the next */
    EngineResult last;
    Program keep;              /* with procs: the last program, for the page's point */
};
typedef struct CompareCtx CompareCtx;
static int predict_one(CompareCtx *C, const SrcFile *f, const Remap *m, double cutoff,
                       MapEval *ev);

enum { MAX_PHASES = 8 };
typedef struct {
    int n;                     /* phases; 0: fewer than 2, or more than MAX_PHASES */
    int first[MAX_PHASES], last[MAX_PHASES];
    const MapCand *best[MAX_PHASES];
    double t_best[MAX_PHASES], t_own[MAX_PHASES];
    int differ;                /* the phases' fastest are not one mapping */
    int tried;                 /* the phased program was predicted: total */
    double total;
    char *why;                 /* differ, not tried: why (heap) */
    char *source;              /* the phased program (heap) */
    char *added;               /* its lines that are not the program's (heap) */
} Phased;

/* The lines of text that are not lines of f, each with its line break. */
static char *added_lines(const SrcFile *f, const char *text)
{
    StrBuf b = {0};
    for (const char *l = text; *l;) {
        size_t k = strcspn(l, "\n");
        int found = 0;
        for (int i = 1; i <= f->nlines && !found; i++) {
            size_t a = f->line_off[i], e = i < f->nlines ? f->line_off[i + 1] : f->len;
            while (e > a && (f->text[e - 1] == '\n' || f->text[e - 1] == '\r'))
                e--;
            found = e - a == k && !memcmp(f->text + a, l, k);
        }
        if (!found)
            sb_printf(&b, "%.*s\n", (int)k, l);
        l += k + (l[k] == '\n');
    }
    return b.s ? b.s : xstrdup("");
}

static int main_phases(const Node *file, int *first, int *last)
{
    int n = 0;
    for (int i = 0; i < file->u.list.items.n; i++) {
        const Node *u = file->u.list.items.v[i];
        if (u->u.unit.which != UNIT_PROGRAM)
            continue;
        for (int j = 0; j < u->u.unit.body.n; j++) {
            const Node *st = u->u.unit.body.v[j];
            if (st->kind != AST_DO && st->kind != AST_DO_WHILE)
                continue;
            if (n == MAX_PHASES)
                return 0;          /* too many to try every one */
            first[n] = st->loc.line;
            last[n] = st->u.loop.end_loc.line > st->loc.line ? st->u.loop.end_loc.line
                                                             : st->loc.eline;
            n++;
        }
    }
    return n >= 2 ? n : 0;
}

static double phase_time(const MapEval *ev, int first, int last)
{
    double t = 0;
    for (int l = first; l <= last && l <= ev->nline; l++)
        t += ev->line[l];
    return t;
}

static void phase_search(CompareCtx *C, const Node *file, const MapSearch *ms, Phased *ph)
{
    memset(ph, 0, sizeof *ph);
    const MapCand *own = own_cand(ms);
    ph->n = own && own->ev.line ? main_phases(file, ph->first, ph->last) : 0;
    for (int k = 0; k < ph->n; k++) {
        ph->t_own[k] = phase_time(&own->ev, ph->first[k], ph->last[k]);
        for (int i = 0; i < ms->n; i++) {
            const MapCand *c = &ms->c[i];
            if (c->state != MS_EXACT || !c->ev.line)
                continue;
            double t = phase_time(&c->ev, ph->first[k], ph->last[k]);
            if (!ph->best[k] || t < ph->t_best[k]) {
                ph->best[k] = c;
                ph->t_best[k] = t;
            }
        }
        if (k && ph->best[k] != ph->best[0])
            ph->differ = 1;
    }
    if (!ph->differ)
        return;
    const Remap *maps[MAX_PHASES];
    for (int k = 0; k < ph->n; k++)
        maps[k] = &ph->best[k]->map;
    char err[512];
    int fixed = src_form_of(C->o->path) == FORM_FIXED;
    ph->source = remap_phased_source(C->f, file, maps, ph->first, ph->n, fixed,
                                     "hpfpredict --compare: each phase (top-level loop) under "
                                     "its fastest mapping", err, sizeof err);
    if (!ph->source) {
        ph->why = xstrdup(err);
        return;
    }
    ph->added = added_lines(C->f, ph->source);
    SrcFile *g = srcfile_from_bytes(C->f->name, ph->source, strlen(ph->source));
    MapEval ev;
    if (predict_one(C, g, NULL, 0, &ev) == 0 && ev.ok) {
        ph->tried = 1;
        ph->total = ev.total;
    } else {
        ph->why = xstrdup("the program with the REDISTRIBUTEs does not predict");
    }
    free(ev.line);
    srcfile_free(g);
}

static void phased_free(Phased *ph)
{
    free(ph->why);
    free(ph->source);
    free(ph->added);
}

/* The per-phase part of the ranking: text, or a JSON member. */
static void print_phases(FILE *out, int json, const Phased *ph, const MapCand *best)
{
    if (json) {
        fputs(", \"phases\": ", out);
        if (!ph->n) {
            fputs("null", out);
            return;
        }
        fputs("{\"loops\": [", out);
        for (int k = 0; k < ph->n; k++) {
            char *label = remap_string(&ph->best[k]->map, REMAP_LABEL);
            char *spec = remap_string(&ph->best[k]->map, REMAP_SPEC);
            fprintf(out, "%s{\"first\": %d, \"last\": %d, \"mapping\": ", k ? ", " : "",
                    ph->first[k], ph->last[k]);
            json_string(out, label);
            fputs(", \"spec\": ", out);
            json_string(out, spec);
            fprintf(out, ", \"time\": %.12g, \"own_time\": %.12g}", ph->t_best[k], ph->t_own[k]);
            free(label);
            free(spec);
        }
        fprintf(out, "], \"differ\": %s, \"total\": ", ph->differ ? "true" : "false");
        if (ph->tried)
            fprintf(out, "%.12g", ph->total);
        else
            fputs("null", out);
        fprintf(out, ", \"pays\": %s, \"why\": ",
                ph->tried && best && ph->total < best->ev.total ? "true" : "false");
        if (ph->why)
            json_string(out, ph->why);
        else
            fputs("null", out);
        fputs(", \"source\": ", out);
        if (ph->tried && best && ph->total < best->ev.total)
            json_string(out, ph->source);
        else
            fputs("null", out);
        fputc('}', out);
        return;
    }
    if (!ph->differ)
        return;
    fprintf(out, "\nper phase (the main program's top-level loops), the fastest mapping of each:\n");
    for (int k = 0; k < ph->n; k++) {
        char *label = remap_string(&ph->best[k]->map, REMAP_LABEL);
        fprintf(out, "  lines %d-%d: %.6f s under %s (as written %.6f s)\n", ph->first[k],
                ph->last[k], ph->t_best[k], label, ph->t_own[k]);
        free(label);
    }
    if (!ph->tried)
        fprintf(out, "a REDISTRIBUTE between them is not tried: %s\n", ph->why);
    else if (best && ph->total < best->ev.total) {
        fprintf(out, "with a REDISTRIBUTE before each phase that changes the mapping: %.6f s, "
                "%.3f of the fastest single mapping; it pays. The lines to add (hpfc "
                "--auto-map writes the program):\n", ph->total, ph->total / best->ev.total);
        for (const char *c = ph->added; *c;) {
            size_t k = strcspn(c, "\n");
            fprintf(out, "  %.*s\n", (int)k, c);
            c += k + (c[k] == '\n');
        }
    } else
        fprintf(out, "with a REDISTRIBUTE before each phase that changes the mapping: %.6f s, "
                "%.3f of the fastest single mapping: it does not pay\n", ph->total,
                best ? ph->total / best->ev.total : 1.0);
}

static const char *search_how(const MapSearch *ms)
{
    return !ms->coordinate ? "whole" : ms->whole ? "whole, then by group" : "by group";
}

/* The ranking of --compare, best first, each time also against the
 * program's own mapping. */
static void print_ranking(FILE *out, int format, const Options *o, const char *sag_name, int np,
                          const MapSearch *ms, int limit, const Phased *ph)
{
    const MapCand *w = own_cand(ms), *b = ms->n && ms->c[0].state == MS_EXACT ? &ms->c[0] : NULL;
    double own = w ? w->ev.total : 0;
    const MapCand **row = xcalloc((size_t)ms->n + 1, sizeof *row);
    int *rank = xcalloc((size_t)ms->n + 1, sizeof *rank);
    int nrow = ranking_rows(ms, limit, row, rank), slower = more_than_ranked(ms, limit);
    static const char *const part_key[M_N] = {"computation", "communication", "overhead",
                                               "waiting"};
    if (format == FMT_JSON) {
        fprintf(out, "{\"program\": ");
        json_string(out, o->path);
        fprintf(out, ", \"sag\": ");
        json_string(out, sag_name);
        fprintf(out, ", \"np\": %d, \"candidates\": %.17g, \"search\": \"%s\", \"passes\": %d, "
                "\"predicted\": %d, \"slower\": %d, \"cut_off\": %d, \"skipped\": %d, "
                "\"not_predicted\": %d, \"cutoff\": %.12g, \"mappings\": [", np, ms->space,
                search_how(ms), ms->passes, ms->exact, slower, ms->cut,
                ms->skipped, ms->failed, ms->cutoff);
        for (int i = 0; i < nrow; i++) {
            const MapCand *c = row[i];
            char *label = remap_string(&c->map, REMAP_LABEL), *spec = remap_string(&c->map, REMAP_SPEC);
            fprintf(out, "%s\n  {\"rank\": ", i ? "," : "");
            if (rank[i] > 0)
                fprintf(out, "%d", rank[i]);
            else
                fputs("null", out);
            fprintf(out, ", \"mapping\": ");
            json_string(out, label);
            fprintf(out, ", \"spec\": ");
            json_string(out, spec);
            fprintf(out, ", \"own\": %s, \"predicted\": %s", c->map.own ? "true" : "false",
                   c->state == MS_EXACT ? "true" : "false");
            if (c->state == MS_EXACT) {
                fprintf(out, ", \"total\": %.12g", c->ev.total);
                for (int k = 0; k < M_N; k++)
                    fprintf(out, ", \"%s\": %.12g", part_key[k], c->ev.part[k]);
                fprintf(out, ", \"vs_own\": %.12g", own > 0 ? c->ev.total / own : 1.0);
            }
            fputc('}', out);
            free(label);
            free(spec);
        }
        /* those not ranked: each with what is known of its time */
        fprintf(out, "\n], \"not_ranked\": [");
        int k = 0;
        for (int i = 0; i < ms->n; i++) {
            const MapCand *c = &ms->c[i];
            if (c->state == MS_FAILED || (c->state == MS_EXACT && i < limit))
                continue;
            char *spec = remap_string(&c->map, REMAP_SPEC);
            fprintf(out, "%s\n  {\"spec\": ", k++ ? "," : "");
            json_string(out, spec);
            free(spec);
            if (c->state == MS_EXACT)
                fprintf(out, ", \"total\": %.12g}", c->ev.total);
            else if (c->state == MS_CUT)
                fprintf(out, ", \"at_least\": %.12g}", c->ev.total);
            else
                fprintf(out, ", \"estimate\": %.12g}", c->estimate);
        }
        fprintf(out, "\n], \"changed_lines\": [");
        int ch[CHANGED_LINES], nch = b && w && w != b
                                     ? changed_lines(&b->ev, &w->ev, ch, CHANGED_LINES) : 0;
        for (int i = 0; i < nch; i++)
            fprintf(out, "%s{\"line\": %d, \"own\": %.12g, \"best\": %.12g}", i ? ", " : "",
                    ch[i], w->ev.line[ch[i]], b->ev.line[ch[i]]);
        fprintf(out, "], \"best_directives\": ");
        char *dir = b ? remap_string(&b->map, REMAP_DIRECTIVES) : NULL;
        if (dir)
            json_string(out, dir);
        else
            fputs("null", out);
        free(dir);
        print_phases(out, 1, ph, b);
        fputs("}\n", out);
    } else if (format == FMT_CSV) {
        fputs("rank,own,total,computation,communication,overhead,waiting,vs_own,mapping,spec\n", out);
        for (int i = 0; i < nrow; i++) {
            const MapCand *c = row[i];
            if (rank[i] > 0)
                fprintf(out, "%d", rank[i]);
            fprintf(out, ",%d,", c->map.own);
            if (c->state == MS_EXACT) {
                fprintf(out, "%.12g", c->ev.total);
                for (int k = 0; k < M_N; k++)
                    fprintf(out, ",%.12g", c->ev.part[k]);
                fprintf(out, ",%.12g,", own > 0 ? c->ev.total / own : 1.0);
            } else
                fputs(",,,,,,", out);
            char *label = remap_string(&c->map, REMAP_LABEL), *spec = remap_string(&c->map, REMAP_SPEC);
            csv_string(out, label);
            fputc(',', out);
            csv_string(out, spec);
            fputc('\n', out);
            free(label);
            free(spec);
        }
    } else {
        fprintf(out, "mappings of %s on %s, %d processor%s: %.17g in the search space, searched %s; "
                "%d predicted, fastest first\n", o->path, sag_name, np, np == 1 ? "" : "s",
                ms->space, search_how(ms),
                ms->exact < limit ? ms->exact : limit);
        fprintf(out, "rank        total        comp        comm        ovhd        wait  vs own  mapping\n");
        for (int i = 0; i < nrow; i++) {
            const MapCand *c = row[i];
            char *label = remap_string(&c->map, REMAP_LABEL), *spec = remap_string(&c->map, REMAP_SPEC);
            char rk[16];
            snprintf(rk, sizeof rk, "%d", rank[i]);
            if (c->state == MS_EXACT)
                fprintf(out, "%4s %12.6f %11.6f %11.6f %11.6f %11.6f %7.3f  %s%s\n",
                        rank[i] > 0 ? rk : "-", c->ev.total, c->ev.part[0], c->ev.part[1],
                        c->ev.part[2], c->ev.part[3], own > 0 ? c->ev.total / own : 1.0, label,
                        c->map.own ? "  (as written)" : "");
            else
                fprintf(out, "%4s %12s %11s %11s %11s %11s %7s  %s  (not predicted: it needs values or "
                       "constructs this mapping lacks; --map '%s' shows why)\n", "-", "-", "-", "-",
                       "-", "-", "-", label, spec);
            free(label);
            free(spec);
        }
        if (slower || ms->cut || ms->skipped) {
            fprintf(out, "not ranked:");
            const char *sep = " ";
            if (slower) {
                fprintf(out, "%s%d predicted slower", sep, slower);
                sep = "; ";
            }
            if (ms->cut) {
                fprintf(out, "%s%d ended once past %.6f s, rank %d's time", sep, ms->cut,
                        ms->cutoff, limit);
                sep = "; ";
            }
            if (ms->skipped)
                fprintf(out, "%s%d not predicted, their computation alone estimated at %d times "
                        "that or more", sep, ms->skipped, MAPSEARCH_SKIP_RATIO);
            fputc('\n', out);
        }
        if (b) {
            if (b->map.own)
                fprintf(out, "\nthe program's own mapping is the fastest\n");
            else {
                char *label = remap_string(&b->map, REMAP_LABEL);
                fprintf(out, "\nfastest: %s, %.3f of the program's time; the directives to write:\n",
                       label, own > 0 ? b->ev.total / own : 1.0);
                free(label);
                remap_print(out, &b->map, REMAP_DIRECTIVES);
                int ch[CHANGED_LINES], nch = w ? changed_lines(&b->ev, &w->ev, ch, CHANGED_LINES) : 0;
                if (nch)
                    fprintf(out, "the lines whose mean time changed most against the program's "
                            "own mapping:\n");
                for (int i = 0; i < nch; i++) {
                    double a = w->ev.line[ch[i]], z = b->ev.line[ch[i]];
                    fprintf(out, "  line %d: %.6f s -> %.6f s", ch[i], a, z);
                    if (a > 0)
                        fprintf(out, " (%+.1f%%)", 100 * (z - a) / a);
                    fputc('\n', out);
                }
            }
        }
        print_phases(out, 0, ph, b);
    }
    free(row);
    free(rank);
}


/* The program f under m (NULL: as written in f), quietly unless m is the
 * program's own mapping. */
static int predict_one(CompareCtx *C, const SrcFile *f, const Remap *m, double cutoff, MapEval *ev)
{
    const Options *o = C->o;
    Options oc = *o;
    oc.map = m;
    oc.cutoff = cutoff;
    oc.memo = C->memo;
    oc.procs = C->procs;
    Diag qd, *d = C->diag;
    if (!m || !m->own) {       /* the alternatives' diagnostics are not the user's */
        diag_init(&qd, C->quiet ? C->quiet : stderr);
        qd.format = o->diag_format;
        d = &qd;
    }
    memset(ev, 0, sizeof *ev);
    Program p;
    EngineResult *r = &C->last;
    int rc = -1;
    if (program_compile(&oc, f, o->defs, o->ndefs, &p, d) == 0) {
        p.g = program_abstract(&oc, &p, o->defs, o->ndefs);
        ev->ok = program_interpret(&oc, f, C->sag, p.sp, p.g, o->defs, o->ndefs, o->np[0], 0,
                                   NULL, r, d) == 0;
        if (ev->ok) {
            ev->cut = r->cut;
            ev->total = r->total;
            memcpy(ev->part, r->part, sizeof ev->part);
            if (!r->cut) {
                Report rl = {o->path, C->sag_name, p.g, r, f, NULL, NULL, NULL, NULL};
                ev->nline = report_line_means(&rl, &ev->line);
            }
            rc = 0;
        }
        if (C->procs && ev->ok) {
            program_free(&C->keep);
            C->keep = p;
        } else
            program_free(&p);
    }
    if (d != C->diag)
        diag_finish(d);
    return rc;
}

static int compare_eval(void *ctx, const Remap *m, double cutoff, MapEval *ev)
{
    CompareCtx *C = ctx;
    return predict_one(C, C->f, m, cutoff, ev);
}

/* --compare: the program's data mappings searched (mapsearch.c), the
 * ranking printed with the best one's directives. The program's own
 * mapping is predicted first, with its diagnostics. */
static int compare(const Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
                   Diag *diag)
{
    int np = o->np[0];
    Arena *a = arena_new("mappings");
    for (int i = 0; i < o->ndefs; i++)
        o->defs[i].used = 0;
    Node *ast = frontend_compile(f, src_form_of(o->path), a, diag, o->defs, o->ndefs);
    if (!ast) {
        arena_free(a);
        return 1;
    }
    RemapSpace *space = remap_space_new(ast, np);
    int limit = o->compare_limit ? o->compare_limit : COMPARE_LIMIT;
    CompareCtx C = {o, f, sag, sag_name, diag, tmpfile(), NULL, engine_memo_new(), {0}, {0}};
    MapSearchOptions so = {limit, isatty(2), COMPARE_EXHAUSTIVE};
    MapSearch ms;
    int status = map_search(space, compare_eval, &C, &so, &ms) ? 1 : 0;
    remap_space_free(space);
    Phased ph = {0};
    if (!status)
        phase_search(&C, ast, &ms, &ph);
    arena_free(a);
    if (!status) {
        if (!(page && o->format == FMT_JSON))   /* there: the page's object (main) */
            print_ranking(stdout, o->format, o, sag_name, np, &ms, limit, &ph);
        if (page) {
            /* the ranked mappings again, each a point of the page */
            const MapCand **row = xcalloc((size_t)ms.n + 1, sizeof *row);
            int *rank = xcalloc((size_t)ms.n + 1, sizeof *rank);
            int nrow = ranking_rows(&ms, limit, row, rank);
            EngineProcs procs = {0};
            C.procs = &procs;
            for (int i = 0; i < nrow; i++) {
                MapEval ev;
                if (row[i]->state != MS_EXACT || compare_eval(&C, &row[i]->map, 0, &ev))
                    continue;
                free(ev.line);
                Report rp = {o->path, sag_name, C.keep.g, &C.last, f, NULL, NULL, NULL, NULL};
                char *label = remap_string(&row[i]->map, REMAP_LABEL);
                html_point(page, &rp, &procs, NULL, label);
                free(label);
            }
            program_free(&C.keep);
            engine_procs_free(&procs);
            free(row);
            free(rank);
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (!m)
                fatal("out of memory");
            print_ranking(m, FMT_JSON, o, sag_name, np, &ms, limit, &ph);
            if (fclose(m) != 0)
                fatal("out of memory");
            html_ranking(page, buf);
        }
    }
    if (C.quiet)
        fclose(C.quiet);
    if (getenv("HPFPREDICT_MEMO_COUNTS")) {   /* (testsuite/compare.test) */
        long hits, misses;
        engine_memo_counts(C.memo, &hits, &misses);
        fprintf(stderr, "memo: %ld found, %ld computed\n", hits, misses);
    }
    engine_memo_free(C.memo);
    phased_free(&ph);
    map_search_free(&ms);
    return status;
}

/* Whether a sweep is printed as one table (text or CSV, no queries). */
static int sweep_table(const Options *o)
{
    ReportQuery q = query_of(o);
    return o->npoints > 1 && o->format != FMT_JSON && !report_has_query(&q) &&
           !o->dump_aag && !o->dump_saag;
}

/* The prompt after the budget ran out in a loop (r->stop): the trip count
 * of the outermost one, a number or 'max'. Returns its line with *n set,
 * or 0 (an empty answer, the end of the input, no such loop). */
static int ask_trips(const Aag *g, const EngineResult *r, long long *n)
{
    int k = program_stop_loop(g, r);
    if (k < 0)
        return 0;
    int line = r->stop[k].line;
    char buf[64];
    for (;;) {
        fprintf(stderr, "trip count of the loop at line %d (a number, 'max' for as many as its "
                "bounds allow, or empty to stop): ", line);
        fflush(stderr);
        if (!fgets(buf, sizeof buf, stdin))
            return 0;
        buf[strcspn(buf, "\r\n")] = 0;
        if (!*buf)
            return 0;
        char *end;
        if (!strcmp(buf, "max")) {
            *n = ENGINE_TRIPS_MAX;
            return line;
        }
        *n = strtoll(buf, &end, 10);
        if (end != buf && !*end && *n >= 0)
            return line;
        fprintf(stderr, "'%s' is not a trip count\n", buf);
    }
}

/* One prediction: the whole pipeline for one processor count. Its report
 * is printed, or, in a sweep printed as a table, its times go to *pt. */
static int predict(const Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
                   int np, int first, Diag *diag, SweepPoint *pt)
{
    Program p;
    Remap map;
    Options mapped;
    if (o->map_spec) {
        if (resolve_map(o, f, np, &map, diag))
            return 1;
        mapped = *o;
        mapped.map = &map;
        o = &mapped;
    }
    if (program_compile(o, f, o->defs, o->ndefs, &p, diag))
        return 1;
    p.g = program_abstract(o, &p, o->defs, o->ndefs);
    const Aag *g = p.g;
    int status = 1;
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
    Trace trace, *t = NULL;
    if (o->trace) {
        trace_init(&trace, np, o->path, sag_name);
        t = &trace;
    }
    EngineResult r;
    int tty = isatty(0) && isatty(2), ok;
    Options asked, paged;
    EngineProcs procs = {0};
    if (page) {
        paged = *o;
        paged.procs = &procs;
        o = &paged;
    }
    EngineTrips *trips = NULL;
    while ((ok = program_interpret(o, f, sag, p.sp, p.g, o->defs, o->ndefs, np, tty, t, &r,
                                   diag) == 0) == 0 && tty) {
        /* on a terminal, the budget spent in a convergence loop: its trip
           count asked for, and the prediction made again with it */
        long long n;
        int line = ask_trips(g, &r, &n);
        if (!line)
            break;
        trips = xrealloc(trips, (size_t)(o->ntrips + 1) * sizeof *trips);
        if (o->ntrips)
            memcpy(trips, o->trips, (size_t)o->ntrips * sizeof *trips);
        trips[o->ntrips] = (EngineTrips){line, n};
        asked = *o;
        asked.trips = trips;
        asked.ntrips = o->ntrips + 1;
        o = &asked;
        aag_free(p.g);
        p.g = program_abstract(o, &p, o->defs, o->ndefs);
        g = p.g;
        diag->nerrors = 0;        /* what stopped it is answered */
        if (t) {
            Trace fresh = *t;
            trace_free(t);
            trace_init(t, fresh.np, fresh.program, fresh.sag);
        }
    }
    if (ok && !(t && trace_save(o, t, "hpfpredict: "))) {
        ReportQuery q = query_of(o);
        Report rp = {o->path, sag_name, g, &r, f, &q, pt->label, NULL, NULL};
        pt->np = np;
        pt->total = r.total;
        for (int m = 0; m < M_N; m++)
            pt->part[m] = r.part[m];
        if (page)
            html_point(page, &rp, &procs, t, NULL);
        if (sweep_table(o) || (page && o->format == FMT_JSON))
            ;                  /* the table, or the page's object, after the last point */
        else if (o->format == FMT_JSON)
        {
            /* the objects of a sweep separated as they come: one that
               fails leaves no dangling comma */
            if (o->npoints > 1 && json_objects++)
                puts(",");
            report_json(stdout, &rp, o->npoints > 1 ? 2 : 0);
        }
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
    if (t)
        trace_free(t);
    free(trips);
    engine_procs_free(&procs);
done:
    program_free(&p);
    return status;
}

/* The label of sweep point c: the swept -D values ("n=64 maxit=10"), in
 * buf; sets the definitions to them. */
const char *sweep_values(Options *o, long c, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < o->ndlist; i++) {
        const DefList *l = &o->dlist[i];
        const char *v = l->v[c % l->n];
        c /= l->n;
        o->defs[l->def].value = v;
        int k = snprintf(buf + at, n - at, "%s%s=%s", at ? " " : "", o->defs[l->def].name, v);
        if (k > 0 && (size_t)k < n - at)
            at += (size_t)k;
    }
    for (int i = 0; i < o->nslist; i++) {
        SetList *l = &o->slist[i];
        l->cur = (int)(c % l->n);
        c /= l->n;
        int k = snprintf(buf + at, n - at, "%s%s=%s", at ? " " : "", l->key, l->v[l->cur]);
        if (k > 0 && (size_t)k < n - at)
            at += (size_t)k;
    }
    return buf;
}

/* The sweep's SVG, or why not. */
static int write_plot(Options *o, const Sweep *sw)
{
    int bad = sweep_svg(o->plot_out, sw) != 0;
    if ((ferror(o->plot_out) | fclose(o->plot_out)) != 0 || bad) {
        const char *why = sweep_invalid(sw);
        fprintf(stderr, "hpfpredict: error: cannot write '%s'%s%s\n", o->plot,
                why ? ": " : "", why ? why : "");
        bad = 1;
    }
    o->plot_out = NULL;
    if (bad)
        remove(o->plot);
    return bad;
}

/* The end of --html: the page written (and with --format=json its object
 * printed), or after a failure no page left behind. The status. */
static int write_page(Options *o, int status)
{
    if (!o->html_out)
        return status;
    if (!status && o->format == FMT_JSON)
        html_object(page, stdout);
    int bad = !status && html_page(page, o->html_out) != 0;
    if ((ferror(o->html_out) | fclose(o->html_out)) != 0 || bad) {
        if (!status)
            fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->html);
        status = 1;
    }
    o->html_out = NULL;
    if (status)
        remove(o->html);
    html_free(page);
    page = NULL;
    return status;
}

/* The experiments of --set, on the machine (sag NULL: a forecast makes
 * them on its equations); the name shown for it gets them appended
 * ("ipsc860 [cpu.speed=2]"). */
static int apply_set_list(const char *const *sets, int nsets, SagGraph *sag, char **shown)
{
    if (!nsets)
        return 0;
    size_t n = strlen(*shown) + 4;
    for (int i = 0; i < nsets; i++) {
        char err[512];
        if (sag && sag_experiment(sag, sets[i], err, sizeof err) != 0) {
            fprintf(stderr, "hpfpredict: error: --set %s: %s\n", sets[i], err);
            return 1;
        }
        n += strlen(sets[i]) + 1;
    }
    char *name = xmalloc(n), *at = name;
    at += sprintf(at, "%s [", *shown);
    for (int i = 0; i < nsets; i++)
        at += sprintf(at, "%s%s", i ? " " : "", sets[i]);
    strcpy(at, "]");
    free(*shown);
    *shown = name;
    return 0;
}

static int apply_sets(Options *o, SagGraph *sag, char **shown)
{
    return apply_set_list(o->sets, o->nsets, sag, shown);
}

/* The machine of a sweep point with --set lists: the SAG loaded again, the
 * plain --set experiments and the lists' current values (sweep_values)
 * applied, its name in *shown; NULL after a diagnostic. */
static SagGraph *sweep_sag(const Options *o, char **shown, Diag *d)
{
    SagGraph *sag = load_sag(o->sag_arg, shown, d);
    if (!sag)
        return NULL;
    int n = o->nsets + o->nslist;
    const char **all = xmalloc((size_t)n * sizeof *all);
    char **own = xmalloc((size_t)o->nslist * sizeof *own);
    for (int i = 0; i < o->nsets; i++)
        all[i] = o->sets[i];
    for (int i = 0; i < o->nslist; i++) {
        const SetList *l = &o->slist[i];
        own[i] = xmalloc(strlen(l->key) + strlen(l->v[l->cur]) + 2);
        sprintf(own[i], "%s=%s", l->key, l->v[l->cur]);
        all[o->nsets + i] = own[i];
    }
    if (apply_set_list(all, n, sag, shown)) {
        sag_free(sag);
        sag = NULL;
    }
    for (int i = 0; i < o->nslist; i++)
        free(own[i]);
    free(own);
    free(all);
    return sag;
}

/* Every value of the --set lists tried before the work: a bad one stops
 * the run at once. */
static int check_set_lists(Options *o, Diag *d)
{
    for (int i = 0; i < o->nslist; i++)
        for (int v = 0; v < o->slist[i].n; v++) {
            for (int j = 0; j < o->nslist; j++)
                o->slist[j].cur = j == i ? v : 0;
            char *name = NULL;
            SagGraph *sag = sweep_sag(o, &name, d);
            free(name);
            if (!sag)
                return 1;
            sag_free(sag);
        }
    return 0;
}

/* The number of predictions of the sweep, within MAX_SWEEP. */
static int sweep_size(Options *o)
{
    long n = o->nnp;
    for (int i = 0; i < o->ndlist + o->nslist; i++) {
        n *= i < o->ndlist ? o->dlist[i].n : o->slist[i - o->ndlist].n;
        if (n > MAX_SWEEP) {
            fprintf(stderr, "hpfpredict: error: the sweep has more than %d predictions\n",
                    MAX_SWEEP);
            return 1;
        }
    }
    o->npoints = (int)n;
    ReportQuery q = query_of(o);
    if (o->ndlist && o->format == FMT_CSV && report_has_query(&q)) {
        fprintf(stderr, "hpfpredict: error: the CSV rows of a query name the processor count "
                "only: with a -D list, ask with --format=json (its objects have \"values\")\n");
        return 1;
    }
    if ((o->ndlist || o->nslist) && (o->callgrind || o->trace || o->interactive)) {
        fprintf(stderr, "hpfpredict: error: %s is for one prediction: %s %s gives a list\n",
                o->callgrind ? "--callgrind" : o->trace ? "--trace" : "-i",
                o->ndlist ? "-D" : "--set",
                o->ndlist ? o->defs[o->dlist[0].def].name : o->slist[0].key);
        return 1;
    }
    if (o->nslist && o->format == FMT_CSV && report_has_query(&q)) {
        fprintf(stderr, "hpfpredict: error: the CSV rows of a query name the processor count "
                "only: with a --set list, ask with --format=json (its objects have \"values\")\n");
        return 1;
    }
    return 0;
}

/* The end of a run: the diagnostics' summary, and the standard output
 * flushed; the exit status. */
static int finish_output(Diag *diag, int status)
{
    diag_finish(diag);
    if (diag->nerrors)
        status = 1;
    if (fflush(stdout) != 0) {
        fputs("hpfpredict: error: cannot write the output\n", stderr);
        status = 1;
    }
    return status;
}

/* An output file opened before the work, so that a path that cannot be
 * written stops the run at once: 0, or 1 with the reason. */
static int open_output(const char *path, FILE **f)
{
    *f = fopen(path, "w");
    if (*f)
        return 0;
    fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", path, strerror(errno));
    return 1;
}

/* Before the work: a trace of at most MAX_TRACE_NP processors, into a
 * directory that can be written. */
static int check_trace_run(const Options *o)
{
    if (o->np[0] > MAX_TRACE_NP) {
        char msg[200];
        snprintf(msg, sizeof msg, "--trace keeps every event of every processor: at most %d "
                 "processors, not %d", MAX_TRACE_NP, o->np[0]);
        return bad_usage("%s", msg);
    }
    char *dir = xstrdup(o->trace);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else
        slash[slash == dir] = '\0';     /* "/x" is in "/" */
    int ok = access(dir, W_OK) == 0;
    if (!ok)
        fprintf(stderr, "hpfpredict: error: cannot write trace '%s': %s\n", o->trace,
                strerror(errno));
    free(dir);
    return !ok;
}

static void free_options(Options *o)
{
    for (int i = 0; i < o->ndlist; i++)
        free(o->dlist[i].v);
    free(o->dlist);
    for (int i = 0; i < o->nslist; i++) {
        free(o->slist[i].v);
        free(o->slist[i].text);
    }
    free(o->slist);
    free(o->sets);
    free(o->fits);
    free(o->probe_times);
    free(o->defs);
    free(o->libs);
    free(o->trips);
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
    o.trace_fmt = -1;
    o.maxk = 10;
    o.seed = 1;
    o.ref_time = -1;
    o.probe_budget = 0.1;
    o.cmd = command_line(argc, argv);
    if (parse_options(&o, argc, argv)) {
        free_options(&o);
        return 1;
    }
    Diag diag;
    diag_init(&diag, stderr);
    diag.format = o.diag_format;
    char *sag_name = NULL;
    SagGraph *sag = load_sag(o.sag_arg, &sag_name, &diag);
    if (!sag) {
        diag_finish(&diag);
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
    if (!o.nnp)
        o.np[o.nnp++] = sag_unit_count(engine_node_unit(sag));
    int bad = apply_sets(&o, forecast_sets_on_equations(&o) ? NULL : sag, &sag_name) ||
              sweep_size(&o) || check_set_lists(&o, &diag);
    /* the callgrind file is opened first, and the trace's directory
       checked, so that a path that cannot be written stops the run before
       the work */
    if (!bad)
        bad = check_lines(&o, f);
    if (!bad && o.trace && !o.dump_aag && !o.dump_saag)
        bad = check_trace_run(&o);
    if (!bad && o.plot && !o.dump_aag && !o.dump_saag)
        bad = open_output(o.plot, &o.plot_out);
    if (!bad && o.html)
        bad = open_output(o.html, &o.html_out);
    if (bad && o.html_out) {
        fclose(o.html_out);
        remove(o.html);
    }
    if (!bad && o.callgrind && !o.dump_aag && !o.dump_saag)
        bad = open_output(o.callgrind, &o.cg);
    if (bad) {
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return 1;
    }
    if (o.html)
        page = html_new(o.path, sag_name, o.cmd);
    if (o.compare) {
        int status = compare(&o, f, sag, sag_name, &diag);
        status = finish_output(&diag, write_page(&o, status));
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return status;
    }
    if (o.bbv || o.phases || o.save_phases || o.nprobe_times) {
        int status = finish_output(&diag, probe_main(&o, f, sag, sag_name, &diag));
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return status;
    }
    if (o.rue || o.forecast || o.sweet_spot || o.rue_check) {
        int status = finish_output(&diag, forecast_main(&o, f, sag, sag_name, &diag));
        if (o.plot_out) {
            fclose(o.plot_out);
            remove(o.plot);
        }
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return status;
    }
    if (o.interactive) {
        int status = interact(&o, f, sag, sag_name);
        srcfile_free(f);
        sag_free(sag);
        free(sag_name);
        free_options(&o);
        return status;
    }
    int status = 0;
    int json = o.format == FMT_JSON && !o.dump_aag && !o.dump_saag && !page;
    /* the sweep: every processor count for each combination of the -D
       lists (the first list varying fastest) */
    long ncomb = o.npoints / o.nnp;
    SweepPoint *pts = xcalloc((size_t)o.npoints, sizeof *pts);
    char **labels = xcalloc((size_t)ncomb, sizeof *labels);
    int progress = o.npoints > 1 && isatty(2) && !o.dump_aag && !o.dump_saag;
    if (json && o.npoints > 1)
        puts("[");
    for (long c = 0, k = 0; c < ncomb && !status; c++) {
        char buf[512];
        labels[c] = xstrdup(sweep_values(&o, c, buf, sizeof buf));
        SagGraph *csag = sag;
        char *cname = sag_name;
        if (o.nslist && !(csag = sweep_sag(&o, &cname, &diag))) {
            status = 1;
            break;
        }
        for (int i = 0; i < o.nnp && !status; i++, k++) {
            if (progress)
                fprintf(stderr, "\rhpfpredict: prediction %ld of %d: %s%s-np %d\033[K", k + 1,
                        o.npoints, labels[c], *labels[c] ? " " : "", o.np[i]);
            pts[k].label = labels[c];
            status = predict(&o, f, csag, cname, o.np[i], k == 0, &diag, &pts[k]);
            if (status && o.npoints > 1)
                fprintf(stderr, "hpfpredict: note: the sweep stopped at %s%s-np %d\n",
                        labels[c], *labels[c] ? ", " : "", o.np[i]);
            if (json && !status && o.npoints == 1)
                putchar('\n');
            if (o.dump_aag || o.dump_saag) {
                c = ncomb;     /* one dump: the sweep ends here */
                break;
            }
        }
        if (csag != sag) {
            sag_free(csag);
            free(cname);
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    if (json && o.npoints > 1)
        puts("\n]");          /* closed after a failure too: the points before it stand */
    /* a sweep that stopped prints the table of the points predicted */
    long done = 0;
    while (done < o.npoints && pts[done].np > 0)
        done++;
    Sweep sw = {o.path, sag_name, NULL, pts, (int)done};
    if (done && sweep_table(&o)) {
        if (o.format == FMT_CSV)
            sweep_table_csv(stdout, &sw);
        else
            sweep_table_text(stdout, &sw);
    }
    if (o.plot_out && status) {
        fclose(o.plot_out);        /* no plot of a sweep that stopped */
        remove(o.plot);
    } else if (o.plot_out && write_plot(&o, &sw))
        status = 1;
    if (page && done > 1)
        html_sweep(page, &sw);
    status = write_page(&o, status);
    for (long c = 0; c < ncomb; c++)
        free(labels[c]);
    free(labels);
    free(pts);
    status = finish_output(&diag, status);
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
