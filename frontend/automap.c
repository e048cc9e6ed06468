/* automap.c - hpfc --auto-map: the program's source rewritten with the data
 * mapping that hpfpredict --compare ranks fastest for a processor count.
 * The search and the predictions are hpfpredict's (interp/mapsearch.c),
 * run as a program beside hpfc; this file reads its ranking (JSON), and
 * writes the source with the chosen directives (remap_source), checked by
 * compiling it again. doc/experiments.md ("hpfc --auto-map"). */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "automap.h"
#include "remap.h"
#include "spmd.h"

/* hpfpredict: $HPFPREDICT, else the one beside this hpfc, else PATH's. */
static char *predictor(void)
{
    const char *env = getenv("HPFPREDICT");
    if (env && *env)
        return xstrdup(env);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            StrBuf b = {0};
            sb_printf(&b, "%.*s/hpfpredict", (int)(slash - self), self);
            if (access(b.s, X_OK) == 0)
                return b.s;
            sb_free(&b);
        }
    }
    return xstrdup("hpfpredict");
}

/* Runs argv, its standard output into *out (heap); its standard error
 * passes through. Returns the exit status, or -1 when it could not run. */
static int run_capture(char *const *argv, char **out)
{
    int fd[2];
    *out = NULL;
    if (pipe(fd))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "hpfc: error: --auto-map: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    StrBuf b = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            sb_printf(&b, "%.*s", (int)n, buf);
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    *out = b.s ? b.s : xstrdup("");
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The string value of "key" at or after s in hpfpredict's JSON, its
 * escapes (util.c's json_string) undone, into a heap string; NULL when
 * absent. *end: just past it. */
static char *json_str(const char *s, const char *key, const char **end)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(s, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    StrBuf b = {0};
    for (; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\' && p[1]) {     /* json_string's escapes undone */
            c = *++p;
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
            else if (c == 'u' && p[1] && p[2] && p[3] && p[4]) {
                char hex[5] = {p[1], p[2], p[3], p[4], 0};
                c = (char)strtol(hex, NULL, 16);
                p += 4;
            }
        }
        sb_printf(&b, "%c", c);
    }
    if (end)
        *end = p;
    return b.s ? b.s : xstrdup("");
}

/* The number of "key" at or after s, before `limit` (NULL: anywhere). */
static int json_num(const char *s, const char *limit, const char *key, double *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(s, pat);
    if (!p || (limit && p > limit))
        return 0;
    char *e;
    *v = strtod(p + strlen(pat), &e);
    return e != p + strlen(pat);
}

/* The phased program of hpfpredict with its comment line (the one that
 * names hpfpredict --compare) replaced by comment's lines. */
static char *with_comment(const char *src, const char *comment, int fixed)
{
    StrBuf b = {0};
    for (const char *l = src; *l;) {
        size_t k = strcspn(l, "\n");
        const char *hit = strstr(l, "hpfpredict --compare: each phase");
        if (hit && hit < l + k) {
            remap_put_comment(&b, comment, fixed);
        } else {
            sb_printf(&b, "%.*s\n", (int)k, l);
        }
        l += k + (l[k] == '\n');
    }
    return b.s ? b.s : xstrdup("");
}

/* The rewritten program compiles (its diagnostics are not the user's). */
static int compiles(const SrcFile *f, const char *text, int fixed, const AutoMapArgs *a)
{
    SrcFile *g = srcfile_from_bytes(f->name, text, strlen(text));
    Arena *arena = arena_new("auto-map check");
    FILE *sink = fopen("/dev/null", "w");
    Diag d;
    diag_init(&d, sink ? sink : stderr);
    for (int i = 0; i < a->ndv; i++)
        a->dv[i].used = 0;
    Node *ast = frontend_compile(g, fixed ? FORM_FIXED : FORM_FREE, arena, &d, a->dv, a->ndv);
    int ok = ast && spmd_lower(ast, arena, &d) && !d.nerrors;
    if (sink)
        fclose(sink);
    arena_free(arena);
    srcfile_free(g);
    return ok;
}

int auto_map(const SrcFile *f, int fixed, const Node *ast, const AutoMapArgs *a,
             const char *outpath)
{
    char *prog = predictor();
    const char **argv = xcalloc((size_t)a->ndefs * 2 + 16, sizeof *argv);
    int k = 0;
    argv[k++] = prog;
    argv[k++] = f->name;
    if (a->sag) {
        argv[k++] = "-sag";
        argv[k++] = a->sag;
    }
    argv[k++] = "-np";
    argv[k++] = a->np;
    for (int i = 0; i < a->ndefs; i++) {
        argv[k++] = "-D";
        argv[k++] = a->defs[i];   /* as given: NAME=VALUE */
    }
    argv[k++] = "--compare";
    argv[k++] = "--format=json";
    argv[k] = NULL;
    char *json = NULL;
    int rc = run_capture((char *const *)argv, &json), status = 1;
    free(argv);
    const char *m = json ? strstr(json, "\"mappings\": [") : NULL;
    if (rc != 0 || !m) {
        if (rc != 0 && rc != 127)
            fprintf(stderr, "hpfc: error: --auto-map: %s could not rank the mappings "
                    "(its messages above)\n", prog);
        else if (rc == 0)
            fprintf(stderr, "hpfc: error: --auto-map: %s gave no ranking\n", prog);
        goto done;
    }
    /* the first entry is the fastest; the own one is marked "own": true */
    const char *end = NULL, *next;
    char *label = json_str(m, "mapping", NULL), *spec = json_str(m, "spec", &end),
         *sag = json_str(json, "sag", NULL);
    double best = 0, own = 0;
    const char *o = strstr(m, "\"own\": true");
    next = strchr(end ? end : m, '}');
    int ok = label && spec && json_num(m, next, "total", &best) && o
             && json_num(o, NULL, "total", &own);
    char *own_label = NULL;
    if (o) {                       /* the own entry's label: back to its start */
        const char *st = o;
        while (st > m && *st != '{')
            st--;
        own_label = json_str(st, "mapping", NULL);
    }
    if (!ok || !own_label) {
        fprintf(stderr, "hpfc: error: --auto-map: %s's ranking cannot be read\n", prog);
    } else {
        Remap r;
        char err[512];
        /* the own mapping ranks first, or the first is within
           AUTOMAP_MIN_GAIN of it: not worth changing the directives */
        int same = !*spec || best > own * (1 - AUTOMAP_MIN_GAIN);
        /* a mapping per phase, with REDISTRIBUTEs, where it pays */
        const char *ph = strstr(json, "\"phases\": {");
        double phased = 0;
        char *phased_src = ph && strstr(ph, "\"pays\": true") && json_num(ph, NULL, "total", &phased)
                           && phased < best * (1 - AUTOMAP_MIN_GAIN)
                           ? json_str(ph, "source", NULL) : NULL;
        char *text = NULL, *note = NULL;
        StrBuf c = {0}, nb = {0};
        if (phased_src) {
            sb_printf(&c, "hpfc --auto-map -np %s on %s: a mapping per phase (top-level loop),\n"
                      "a REDISTRIBUTE between them;\npredicted %.6g s, %.3f of the %.6g s of the "
                      "mapping as written,\n%s; the fastest single mapping,\n%s: %.6g s\n",
                      a->np, sag ? sag : "the SAG", phased, own > 0 ? phased / own : 1.0, own,
                      own_label, label, best);
            text = with_comment(phased_src, c.s, fixed);
            sb_printf(&nb, "a mapping per phase, REDISTRIBUTE between them: predicted %.6g s, "
                      "%.3f of the mapping as written", phased, own > 0 ? phased / own : 1.0);
        } else if (same) {
            sb_printf(&nb, "no mapping is predicted %g%% faster than the program's own (%s) on "
                      "%s processor%s: the program is written unchanged", 100 * AUTOMAP_MIN_GAIN,
                      own_label, a->np, strcmp(a->np, "1") ? "s" : "");
        } else if (remap_parse(ast, spec, atoi(a->np), &r, err, sizeof err)) {
            fprintf(stderr, "hpfc: error: --auto-map: the mapping '%s' does not read back: %s\n",
                    spec, err);
            goto written;
        } else {
            sb_printf(&c, "hpfc --auto-map -np %s on %s: %s\npredicted %.6g s, %.3f of the %.6g s "
                      "of the mapping as written,\n%s\n", a->np, sag ? sag : "the SAG", label, best,
                      own > 0 ? best / own : 1.0, own, own_label);
            text = remap_source(f, ast, &r, fixed, c.s, err, sizeof err);
            if (!text) {
                fprintf(stderr, "hpfc: error: --auto-map: %s\n", err);
                goto written;
            }
            sb_printf(&nb, "%s: predicted %.6g s, %.3f of the mapping as written", label, best,
                      own > 0 ? best / own : 1.0);
        }
        note = nb.s;
        if (text && !compiles(f, text, fixed, a)) {
            fprintf(stderr, "hpfc: internal error: --auto-map: the program rewritten does not "
                    "compile\n");
            status = 4;
        } else {
            FILE *out = !strcmp(outpath, "-") ? stdout : fopen(outpath, "w");
            if (!out) {
                fprintf(stderr, "hpfc: error: cannot write '%s': %s\n", outpath, strerror(errno));
            } else {
                if (text)
                    fputs(text, out);
                else
                    fwrite(f->text, 1, f->len, out);
                int bad = out == stdout ? fflush(out) != 0 || ferror(out) : fclose(out) != 0;
                if (bad)
                    fprintf(stderr, "hpfc: error: cannot write '%s'\n", outpath);
                else
                    fprintf(stderr, "hpfc: note: %s\n", note);
                status = bad;
            }
        }
written:
        sb_free(&c);
        sb_free(&nb);
        free(phased_src);
        free(text);
    }
    free(label);
    free(spec);
    free(sag);
    free(own_label);
done:
    free(json);
    free(prog);
    return status;
}
