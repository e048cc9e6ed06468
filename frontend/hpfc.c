/* hpfc.c - the hpfc program: options, then the front end's stages. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automap.h"
#include "frontend.h"
#include "spmd.h"

enum { MODE_CHECK, MODE_DUMP_AST, MODE_UNPARSE, MODE_DUMP_SPMD, MODE_EMIT };

static void usage(FILE *out)
{
    fputs("Usage: hpfc [OPTION]... FILE\n"
          "Compile an HPF/Fortran 90D program (free form .f90/.hpf, fixed form .f/.for).\n"
          "\n"
          "  -c, --check              parse, check and lower: the diagnostics of hpfc -o,\n"
          "                           no output\n"
          "      --dump-ast           print the checked AST (stable text, for tests)\n"
          "      --unparse            print the program back as normalized free-form source\n"
          "      --dump-spmd          print the SPMD IR of the lowered program (stable text)\n"
          "  -o FILE                  write the SPMD program: Fortran calling libhpfrt, fixed\n"
          "                           form when FILE ends in .f or .for, free form otherwise\n"
          "  -D NAME=VALUE            override the value of a PARAMETER constant\n"
          "      --map=SPEC           compile under another data mapping, e.g.\n"
          "                           'temp=BLOCK,*' or 'temp=(BLOCK,BLOCK)@2x2', or an\n"
          "                           ALIGN's variant 'a=(*,i) WITH temp(i)'\n"
          "      --probe PHASES       with -o: write the synthetic probe instead, a program\n"
          "                           that runs only the phases' statements (PHASES from\n"
          "                           hpfpredict --save-phases) on generated data, each\n"
          "                           timed (doc/probes.md)\n"
          "      --auto-map -np N     with -o: write the program's source with the data\n"
          "                           mapping hpfpredict --compare ranks fastest on N\n"
          "                           processors (-sag FILE: on that machine), a comment\n"
          "                           giving the predicted gain; the rest unchanged\n"
          "      --free-form          read FILE as free form, whatever its extension\n"
          "      --fixed-form         read FILE as fixed form, whatever its extension\n"
          "  -fdiagnostics-format=text|json\n"
          "                           how diagnostics are written on standard error\n"
          "  -fmax-errors=N           stop after N errors (default 50, 0: no limit)\n"
          "  -Werror                  make warnings errors\n"
          "  -h, --help               show this help and exit\n"
          "  -V, --version            show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on errors in the input or the command line,\n"
          "4 on an internal error.\n"
          "Report bugs to the hpfpredict project.\n", out);
}

static int bad_usage(const char *fmt, const char *arg)
{
    return usage_error("hpfc", fmt, arg);
}

/* Fixed form for .f and .for, as gfortran and mpif90 read them. */
static int fixed_name(const char *p)
{
    size_t n = strlen(p);
    return (n > 2 && !strcmp(p + n - 2, ".f")) || (n > 4 && !strcmp(p + n - 4, ".for"))
           || (n > 2 && !strcmp(p + n - 2, ".F")) || (n > 4 && !strcmp(p + n - 4, ".FOR"));
}

static int write_spmd(const SpProgram *sp, const char *outpath, const char *src)
{
    int to_stdout = !strcmp(outpath, "-");
    FILE *out = to_stdout ? stdout : fopen(outpath, "w");
    if (!out) {
        fprintf(stderr, "hpfc: error: cannot write '%s': %s\n", outpath, strerror(errno));
        return -1;
    }
    int rc = spmd_emit(out, sp, !to_stdout && fixed_name(outpath), src);
    if (!to_stdout && fclose(out) != 0)
        rc = -1;
    if (rc)
        fprintf(stderr, "hpfc: error: cannot write '%s'\n", outpath);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"check", no_argument, NULL, 'c'},
        {"dump-ast", no_argument, NULL, 'A'},
        {"unparse", no_argument, NULL, 'U'},
        {"dump-spmd", no_argument, NULL, 'S'},
        {"output", required_argument, NULL, 'o'},
        {"free-form", no_argument, NULL, 'F'},
        {"fixed-form", no_argument, NULL, 'X'},
        {"map", required_argument, NULL, 'M'},
        {"probe", required_argument, NULL, 'P'},
        {"auto-map", no_argument, NULL, 'a'},
        {"np", required_argument, NULL, 'n'},
        {"sag", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int mode = MODE_CHECK, form = -1, c;
    const char *outpath = NULL, *mapspec = NULL, *probe = NULL;
    Diag diag;
    diag_init(&diag, stderr);
    Define *defs = NULL;
    int ndefs = 0, automap = 0;
    AutoMapArgs am = {0};
    am.defs = xcalloc((size_t)argc + 1, sizeof *am.defs);
    /* -np and -sag are written with one dash, as hpfpredict's */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "-np"))
            argv[i] = "--np";
        else if (!strcmp(argv[i], "-sag"))
            argv[i] = "--sag";
    }

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":chVD:f:W:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': mode = MODE_CHECK; break;
        case 'A': mode = MODE_DUMP_AST; break;
        case 'U': mode = MODE_UNPARSE; break;
        case 'S': mode = MODE_DUMP_SPMD; break;
        case 'o': mode = MODE_EMIT; outpath = optarg; break;
        case 'F': form = FORM_FREE; break;
        case 'X': form = FORM_FIXED; break;
        case 'M': mapspec = optarg; break;
        case 'P': probe = optarg; break;
        case 'a': automap = 1; break;
        case 'n': am.np = optarg; break;
        case 's': am.sag = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V':
            printf("hpfc (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 0;
        case 'D': {
            am.defs[am.ndefs++] = xstrdup(optarg);   /* define_add splits its argument */
            const char *why = define_add(&defs, &ndefs, optarg);
            if (why)
                return bad_usage(why, optarg);
            break;
        }
        case 'f':
            if (strcmp(optarg, "diagnostics-format=text") == 0)
                diag.format = DIAG_TEXT;
            else if (strcmp(optarg, "diagnostics-format=json") == 0)
                diag.format = DIAG_JSON;
            else if (strncmp(optarg, "max-errors=", 11) == 0) {
                char *end;
                long n = strtol(optarg + 11, &end, 10);
                if (*end || n < 0 || end == optarg + 11)
                    return bad_usage("invalid value in '-f%s'", optarg);
                diag.max_errors = (int)n;
            } else
                return bad_usage("unknown option '-f%s'", optarg);
            break;
        case 'W':
            if (strcmp(optarg, "error") != 0)
                return bad_usage("unknown option '-W%s'", optarg);
            diag.werror = 1;
            break;
        default:
            return usage_getopt("hpfc", c, argv[optind - 1]);
        }
    }
    if (usage_one_input("hpfc", optind, argc))
        return 1;
    if (probe && mode != MODE_EMIT)
        return bad_usage("--probe %s writes the synthetic probe: with -o FILE", probe);
    if ((am.np || am.sag) && !automap)
        return bad_usage("%s is for --auto-map", am.np ? "-np" : "-sag");
    if (automap) {
        char *end;
        long np = am.np ? strtol(am.np, &end, 10) : 0;
        if (!am.np)
            return bad_usage("%s", "--auto-map needs the processor count: -np N");
        if (*end || end == am.np || np < 1 || np > 4194304)
            return bad_usage("-np expects a processor count from 1 to 4194304, not '%s'", am.np);
        if (mode != MODE_EMIT)
            return bad_usage("%s", "--auto-map writes the program's source: with -o FILE");
        if (mapspec || probe)
            return bad_usage("--auto-map chooses the mapping itself: not with %s",
                             mapspec ? "--map" : "--probe");
        if (form >= 0 && (SourceForm)form != src_form_of(argv[optind]))
            return bad_usage("--auto-map reads %s by its name's form, as hpfpredict does: "
                             "not with --free-form or --fixed-form", argv[optind]);
    }

    const char *path = argv[optind];
    if (outpath && strcmp(outpath, "-") && (file_same(outpath, path) || file_same(outpath, probe)))
        return bad_usage("-o %s is an input of this compilation: it would be overwritten; "
                         "name another file", outpath);
    char *err = NULL;
    SrcFile *f = srcfile_read(path, &err);
    if (!f) {
        fprintf(stderr, "hpfc: error: cannot read '%s': %s\n", path, err);
        free(err);
        free(defs);
        return 1;
    }
    Arena *arena = arena_new("compilation");
    SourceForm sf = form >= 0 ? (SourceForm)form : src_form_of(path);
    Node *ast = NULL;
    if (mapspec) {
        /* the spec is read against the program as written, checked quietly:
         * its diagnostics, if any, come from the compilation that follows */
        Diag quiet;
        FILE *sink = fopen("/dev/null", "w");
        diag_init(&quiet, sink ? sink : stderr);
        quiet.max_errors = 1;
        Node *plain = frontend_compile(f, sf, arena, &quiet, defs, ndefs);
        if (sink)
            fclose(sink);
        if (plain) {
            Remap r;
            char err[512];
            if (remap_parse(plain, mapspec, 0, &r, err, sizeof err)) {
                fprintf(stderr, "hpfc: error: --map: %s\n", err);
                arena_free(arena);
                srcfile_free(f);
                free(defs);
                return 1;
            }
            ast = frontend_compile_remapped(f, sf, arena, &diag, defs, ndefs, &r);
        } else {
            ast = frontend_compile(f, sf, arena, &diag, defs, ndefs);
        }
    } else {
        ast = frontend_compile(f, sf, arena, &diag, defs, ndefs);
    }
    for (int i = 0; i < ndefs && ast && !automap; i++)   /* (for hpfpredict, -D sets variables too) */
        if (!defs[i].used)
            diag_warning(&diag, (Loc){f, 0, 0, 0, 0},
                         "-D %s: no PARAMETER of that name in the program", defs[i].name);
    if (ast && mode == MODE_DUMP_AST)
        ast_dump(stdout, ast);
    else if (ast && mode == MODE_UNPARSE)
        ast_unparse(stdout, ast);
    else if (ast && automap) {
        if (diag.nerrors == 0) {
            int fixed = sf == FORM_FIXED;
            if (strcmp(outpath, "-") && fixed_name(outpath) != fixed) {
                fprintf(stderr, "hpfc: error: --auto-map -o %s: the source is %s form, and a "
                        "name ending in %s would be read as %s form; name it %s\n", outpath,
                        fixed ? "fixed" : "free", fixed ? "neither .f nor .for" : ".f or .for",
                        fixed ? "free" : "fixed", fixed ? "NAME.f" : "NAME.f90");
                diag.nerrors++;
            } else {
                am.dv = defs;
                am.ndv = ndefs;
                int st = auto_map(f, fixed, ast, &am, outpath);
                if (st == 4) {
                    arena_free(arena);
                    srcfile_free(f);
                    free(defs);
                    return 4;
                }
                diag.nerrors += st != 0;
            }
        }
    } else if (ast && (mode == MODE_DUMP_SPMD || mode == MODE_EMIT || mode == MODE_CHECK)) {
        /* --check lowers too: what hpfc -o refuses, it refuses */
        SpProgram *sp = spmd_lower(ast, arena, &diag);
        /* the sizes this compilation was given: into the run's profile */
        char *values = NULL;
        size_t vlen = 0;
        FILE *vs = sp ? open_memstream(&values, &vlen) : NULL;
        for (int i = 0, k = 0; vs && i < ndefs; i++)
            if (defs[i].used && strspn(defs[i].value, "0123456789+-.eEdD_") == strlen(defs[i].value))
                fprintf(vs, "%s%s=%s", k++ ? " " : "", defs[i].name, defs[i].value);
        if (vs && fclose(vs) == 0 && sp && *values)
            sp->values = arena_strdup(arena, values);
        free(values);
        if (sp && probe) {
            char perr[512];
            if (spmd_probe_read(sp, probe, arena, perr, sizeof perr)) {
                fprintf(stderr, "hpfc: error: --probe: %s\n", perr);
                diag.nerrors++;
                sp = NULL;
            }
        }
        if (sp && mode == MODE_DUMP_SPMD)
            spmd_dump(stdout, sp);
        else if (sp && mode == MODE_EMIT && write_spmd(sp, outpath, path) != 0)
            diag.nerrors++;
    }
    diag_finish(&diag);
    int status = diag.nerrors ? 1 : 0;
    if (fflush(stdout) != 0) {
        fputs("hpfc: error: cannot write the output\n", stderr);
        status = 1;
    }
    arena_free(arena);
    srcfile_free(f);
    free(defs);
    for (int i = 0; i < am.ndefs; i++)
        free((char *)am.defs[i]);
    free(am.defs);
    return status;
}
