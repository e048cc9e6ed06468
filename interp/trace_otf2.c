/* trace_otf2.c - OTF2 traces through libotf2 (Vampir, ViTE): definitions
 * of the processors, regions and metrics, then each processor's events
 * from the walk of its nesting (doc/traces.md). Built only when configure
 * finds libotf2. */
#include <config.h>

#ifdef HAVE_OTF2

#include <dirent.h>
#include <errno.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_int.h"

/* libotf2 reports through a callback (by default a line on stderr per
 * layer it unwinds); the first message is kept for the one-line error. */
static char otf2_msg[256];

static OTF2_ErrorCode otf2_error(void *data, const char *file, uint64_t line, const char *function,
                                 OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)data;
    (void)file;
    (void)line;
    (void)function;
    if (!otf2_msg[0]) {
        char m[200];
        vsnprintf(m, sizeof m, fmt ? fmt : "", va);
        snprintf(otf2_msg, sizeof otf2_msg, "%s%s%s", OTF2_Error_GetDescription(code),
                 m[0] ? ": " : "", m);
    }
    return code;
}

static OTF2_FlushType otf2_pre_flush(void *data, OTF2_FileType ft, OTF2_LocationRef loc,
                                     void *callerData, bool final)
{
    (void)data;
    (void)ft;
    (void)loc;
    (void)callerData;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp otf2_post_flush(void *data, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)data;
    (void)ft;
    (void)loc;
    return 0;
}

static OTF2_FlushCallbacks otf2_flush = {otf2_pre_flush, otf2_post_flush};

/* Regions: one per distinct (kind, line, class or collective name). */
typedef struct {
    TraceKind kind;
    int line;
    const char *name;
} RegionKey;

typedef struct {
    RegionKey *k;
    long n, cap;
    long *slot;               /* hash table of indices + 1; 0: empty */
    long nslot;
} RegionTab;

static unsigned long region_hash(const RegionKey *k)
{
    unsigned long h = 1469598103934665603UL ^ (unsigned long)k->kind;
    h = (h ^ (unsigned long)(unsigned)k->line) * 1099511628211UL;
    for (const char *s = k->name ? k->name : ""; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

static int region_eq(const RegionKey *a, const RegionKey *b)
{
    return a->kind == b->kind && a->line == b->line &&
           strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0;
}

static long region_id(RegionTab *t, const TraceEvent *e)
{
    RegionKey k = {e->kind, e->line > 0 ? e->line : 0, e->name};
    if (2 * (t->n + 1) > t->nslot) {
        long ns = t->nslot ? 2 * t->nslot : 256;
        long *slot = xcalloc((size_t)ns, sizeof *slot);
        for (long i = 0; i < t->n; i++) {
            unsigned long h = region_hash(&t->k[i]) % (unsigned long)ns;
            while (slot[h])
                h = (h + 1) % (unsigned long)ns;
            slot[h] = i + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslot = ns;
    }
    unsigned long h = region_hash(&k) % (unsigned long)t->nslot;
    while (t->slot[h]) {
        if (region_eq(&t->k[t->slot[h] - 1], &k))
            return t->slot[h] - 1;
        h = (h + 1) % (unsigned long)t->nslot;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->k = xrealloc(t->k, (size_t)t->cap * sizeof *t->k);
    }
    t->k[t->n] = k;
    t->slot[h] = t->n + 1;
    return t->n++;
}

static OTF2_RegionRole region_role(const RegionKey *k)
{
    switch (k->kind) {
    case TR_COMP: return OTF2_REGION_ROLE_FUNCTION;
    case TR_SEND:
    case TR_RECV: return OTF2_REGION_ROLE_POINT2POINT;
    case TR_COLL:
        if (!k->name)
            return OTF2_REGION_ROLE_COLL_OTHER;
        if (strcmp(k->name, "barrier") == 0)
            return OTF2_REGION_ROLE_BARRIER;
        if (strcmp(k->name, "broadcast") == 0 || strcmp(k->name, "scatter") == 0)
            return OTF2_REGION_ROLE_COLL_ONE2ALL;
        if (strcmp(k->name, "reduce") == 0 || strcmp(k->name, "gather") == 0)
            return OTF2_REGION_ROLE_COLL_ALL2ONE;
        if (strcmp(k->name, "allreduce") == 0 || strcmp(k->name, "allgather") == 0 ||
            strcmp(k->name, "alltoall") == 0)
            return OTF2_REGION_ROLE_COLL_ALL2ALL;
        return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_ARTIFICIAL;
    }
}

/* Defines the next string; an error is kept in *e (the first one wins). */
static OTF2_StringRef otf2_string(OTF2_GlobalDefWriter *g, OTF2_StringRef *next, const char *s,
                                  OTF2_ErrorCode *e)
{
    if (*e == OTF2_SUCCESS)
        *e = OTF2_GlobalDefWriter_WriteString(g, *next, s);
    return (*next)++;
}

typedef struct {
    OTF2_EvtWriter *w;
    RegionTab *regions;
    const Prep *pp;
    OTF2_ErrorCode rc;
} Otf2Ctx;

enum { OTF2_COMM_ALL = 0 };

static void otf2_step(void *ctx, const Span *s, int begin, long long t, const Span *const *stack,
                      long depth)
{
    Otf2Ctx *c = ctx;
    const TraceEvent *e = s->e;
    OTF2_RegionRef reg = (OTF2_RegionRef)region_id(c->regions, e);
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    (void)stack;
    (void)depth;
    if (c->rc != OTF2_SUCCESS)
        return;
    if (begin) {
        rc = OTF2_EvtWriter_Enter(c->w, NULL, (OTF2_TimeStamp)t, reg);
        if (rc == OTF2_SUCCESS && e->kind == TR_SEND && s->mate >= 0)
            rc = OTF2_EvtWriter_MpiSend(c->w, NULL, (OTF2_TimeStamp)t, (uint32_t)e->peer,
                                        OTF2_COMM_ALL, (uint32_t)e->msg, (uint64_t)tr_bytes_of(e));
    }
    else {
        if (e->kind == TR_RECV && s->mate >= 0)
            rc = OTF2_EvtWriter_MpiRecv(c->w, NULL, (OTF2_TimeStamp)t, (uint32_t)e->peer,
                                        OTF2_COMM_ALL, (uint32_t)e->msg, (uint64_t)tr_bytes_of(e));
        if (rc == OTF2_SUCCESS)
            rc = OTF2_EvtWriter_Leave(c->w, NULL, (OTF2_TimeStamp)t, reg);
    }
    c->rc = rc;
}

/* OTF2 will not make the archive's directory when it exists: an archive
 * written before under the same name is removed first, file by file, and
 * only if it holds nothing but OTF2's files (never a directory the user
 * keeps other things in). */
static int otf2_clear(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT ? 0 : tr_fail(err, errlen, "cannot write '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tr_fail(err, errlen, "cannot write the OTF2 archive: '%s' is in the way", dir);
    static const char *const ext[] = {".evt", ".def", ".snap", ".thumb", ".marker", ".idx"};
    DIR *d = opendir(dir);
    if (!d)
        return tr_fail(err, errlen, "cannot replace '%s': %s", dir, strerror(errno));
    struct dirent *de;
    StrBuf p = {0};
    int bad = 0;
    while ((de = readdir(d)) && !bad) {
        const char *n = de->d_name;
        if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
            continue;
        const char *dot = strrchr(n, '.');
        int ours = 0;
        for (size_t i = 0; dot && i < sizeof ext / sizeof ext[0]; i++)
            ours |= strcmp(dot, ext[i]) == 0;
        sb_clear(&p);
        sb_printf(&p, "%s/%s", dir, n);
        if (!ours || lstat(p.s, &st) != 0 || !S_ISREG(st.st_mode))
            bad = tr_fail(err, errlen, "cannot replace '%s': it holds '%s', not part of an OTF2 "
                       "archive", dir, n);
        else if (unlink(p.s) != 0)
            bad = tr_fail(err, errlen, "cannot remove '%s': %s", p.s, strerror(errno));
    }
    closedir(d);
    sb_free(&p);
    if (!bad && rmdir(dir) != 0)
        bad = tr_fail(err, errlen, "cannot replace '%s': %s", dir, strerror(errno));
    return bad ? -1 : 0;
}

int tr_write_otf2(const Prep *pp, const char *path, char *err, size_t errlen)
{
    const Trace *t = pp->t;
    /* path = DIR/NAME.otf2: the anchor file; the archive is DIR/NAME/ and
       DIR/NAME.def beside it (a path without the suffix: NAME is its last
       component, and the anchor DIR/NAME.otf2) */
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t bl = strlen(base);
    if (bl > 5 && strcmp(base + bl - 5, ".otf2") == 0)
        bl -= 5;
    if (bl == 0)
        return tr_fail(err, errlen, "cannot write '%s': no archive name", path);
    char *name = xmalloc(bl + 1);
    memcpy(name, base, bl);
    name[bl] = 0;
    char *dir = slash ? xmalloc((size_t)(slash - path) + 2) : xstrdup(".");
    if (slash) {
        size_t dl = (size_t)(slash - path);
        memcpy(dir, path, dl ? dl : 1);   /* "/x.otf2": the root */
        dir[dl ? dl : 1] = 0;
    }
    StrBuf sub = {0}, anchor = {0};
    sb_printf(&sub, "%s/%s", dir, name);
    sb_printf(&anchor, "%s.otf2", sub.s);
    int rc = 0;
    struct stat st;
    if (stat(dir, &st) != 0)
        rc = tr_fail(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = tr_fail(err, errlen, "cannot write '%s': %s", path, strerror(ENOTDIR));
    else if (access(dir, W_OK | X_OK) != 0)
        rc = tr_fail(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    else
        rc = otf2_clear(sub.s, err, errlen);
    if (rc) {
        free(name);
        free(dir);
        sb_free(&sub);
        sb_free(&anchor);
        return -1;
    }

    otf2_msg[0] = 0;
    OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(otf2_error, NULL);
    OTF2_ErrorCode e = OTF2_SUCCESS;
    RegionTab regions = {0};
    uint64_t *nev = xcalloc((size_t)pp->np, sizeof *nev);
    const Span **stack = tr_walk_stack(pp);
    StrBuf label = {0};

    OTF2_Archive *ar = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE,
                                         OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
                                         OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (!ar)
        e = OTF2_ERROR_INVALID;
#define OTF2_DO(call) \
    do { \
        if (e == OTF2_SUCCESS) \
            e = (call); \
    } while (0)
    if (ar) {
        OTF2_DO(OTF2_Archive_SetFlushCallbacks(ar, &otf2_flush, NULL));
        OTF2_DO(OTF2_Archive_SetSerialCollectiveCallbacks(ar));
        OTF2_DO(OTF2_Archive_SetCreator(ar, PACKAGE_NAME " " PACKAGE_VERSION));
        if (t->sag)
            OTF2_DO(OTF2_Archive_SetMachineName(ar, t->sag));
        sb_printf(&label, "predicted run of %s on %s, %d processors",
                  t->program ? t->program : "a program", t->sag ? t->sag : "a machine", pp->np);
        OTF2_DO(OTF2_Archive_SetDescription(ar, label.s));
        OTF2_DO(OTF2_Archive_OpenEvtFiles(ar));
        for (int p = 0; p < pp->np && e == OTF2_SUCCESS; p++) {
            OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)p);
            if (!w) {
                e = OTF2_ERROR_INVALID;
                break;
            }
            Otf2Ctx c = {w, &regions, pp, OTF2_SUCCESS};
            tr_walk(pp, p, stack, otf2_step, &c);
            e = c.rc;
            OTF2_DO(OTF2_EvtWriter_GetNumberOfEvents(w, &nev[p]));
            OTF2_ErrorCode ce = OTF2_Archive_CloseEvtWriter(ar, w);
            if (e == OTF2_SUCCESS)
                e = ce;
        }
        OTF2_DO(OTF2_Archive_CloseEvtFiles(ar));

        /* the local definitions are empty, but readers open one file per
           location */
        OTF2_DO(OTF2_Archive_OpenDefFiles(ar));
        for (int p = 0; p < pp->np && e == OTF2_SUCCESS; p++) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)p);
            if (!dw)
                e = OTF2_ERROR_INVALID;
            else
                OTF2_DO(OTF2_Archive_CloseDefWriter(ar, dw));
        }
        OTF2_DO(OTF2_Archive_CloseDefFiles(ar));

        OTF2_GlobalDefWriter *g = e == OTF2_SUCCESS ? OTF2_Archive_GetGlobalDefWriter(ar) : NULL;
        if (e == OTF2_SUCCESS && !g)
            e = OTF2_ERROR_INVALID;
        if (g) {
            OTF2_StringRef ns = 0;
#define OTF2_STR(s) otf2_string(g, &ns, (s), &e)
            OTF2_DO(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0,
                                                              (uint64_t)pp->end,
                                                              OTF2_UNDEFINED_TIMESTAMP));
            OTF2_StringRef s_empty = OTF2_STR("");
            OTF2_StringRef s_prog = OTF2_STR(t->program ? t->program : "program");
            OTF2_StringRef s_mach = OTF2_STR(t->sag ? t->sag : "machine");
            OTF2_StringRef s_machine = OTF2_STR("machine");
            OTF2_StringRef s_node = OTF2_STR("node");
            OTF2_StringRef s_comm = OTF2_STR("all processors");
            for (long r = 0; r < regions.n; r++) {
                const RegionKey *k = &regions.k[r];
                TraceEvent ke = {0};
                ke.kind = k->kind;
                ke.line = k->line;
                ke.name = k->name;
                ke.peer = -1;
                tr_event_name(&label, &ke, 0);
                OTF2_StringRef s_reg = OTF2_STR(label.s);
                OTF2_Paradigm par = k->kind == TR_SEND || k->kind == TR_RECV ||
                                    k->kind == TR_COLL ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER;
                OTF2_DO(OTF2_GlobalDefWriter_WriteRegion(
                    g, (OTF2_RegionRef)r, s_reg, s_reg, s_empty, region_role(k), par,
                    OTF2_REGION_FLAG_NONE, k->line > 0 ? s_prog : s_empty, (uint32_t)k->line,
                    (uint32_t)k->line));
            }
            OTF2_DO(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_mach, s_machine,
                                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE));
            for (int p = 0; p < pp->np; p++) {
                sb_clear(&label);
                sb_printf(&label, "node %d", p);
                OTF2_StringRef s_n = OTF2_STR(label.s);
                sb_clear(&label);
                sb_printf(&label, "processor %d", p);
                OTF2_StringRef s_p = OTF2_STR(label.s);
                /* the process its own name: viewers that name a location's
                   container after its group's and its own (ViTE) refuse
                   two of one name */
                sb_clear(&label);
                sb_printf(&label, "rank %d", p);
                OTF2_StringRef s_r = OTF2_STR(label.s);
                OTF2_DO(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, (OTF2_SystemTreeNodeRef)p + 1,
                                                                 s_n, s_node, 0));
                OTF2_DO(OTF2_GlobalDefWriter_WriteLocationGroup(
                    g, (OTF2_LocationGroupRef)p, s_r, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                    (OTF2_SystemTreeNodeRef)p + 1, OTF2_UNDEFINED_LOCATION_GROUP));
                OTF2_DO(OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)p, s_p,
                                                           OTF2_LOCATION_TYPE_CPU_THREAD, nev[p],
                                                           (OTF2_LocationGroupRef)p));
            }
            /* The communicator of the messages: rank p is location p. */
            uint64_t *members = xmalloc((size_t)pp->np * sizeof *members);
            for (int p = 0; p < pp->np; p++)
                members[p] = (uint64_t)p;
            OTF2_DO(OTF2_GlobalDefWriter_WriteGroup(g, 0, s_empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                    (uint32_t)pp->np, members));
            OTF2_DO(OTF2_GlobalDefWriter_WriteGroup(g, 1, s_empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                    (uint32_t)pp->np, members));
            free(members);
            OTF2_DO(OTF2_GlobalDefWriter_WriteComm(g, OTF2_COMM_ALL, s_comm, 1,
                                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
#undef OTF2_STR
        }
        OTF2_ErrorCode ce = OTF2_Archive_Close(ar);
        if (e == OTF2_SUCCESS)
            e = ce;
    }
#undef OTF2_DO
    OTF2_Error_RegisterCallback(old, NULL);

    /* libotf2 can fail quietly (an error in a flush leaves no code): the
       anchor file must be there */
    if (e == OTF2_SUCCESS && (stat(anchor.s, &st) != 0 || !S_ISREG(st.st_mode))) {
        if (!otf2_msg[0])
            snprintf(otf2_msg, sizeof otf2_msg, "the anchor file was not written");
        e = OTF2_ERROR_INVALID;
    }
    if (e != OTF2_SUCCESS)
        rc = tr_fail(err, errlen, "cannot write the OTF2 archive '%s': %s", anchor.s,
                  otf2_msg[0] ? otf2_msg : OTF2_Error_GetDescription(e));
    free(stack);
    free(nev);
    free(regions.k);
    free(regions.slot);
    sb_free(&label);
    sb_free(&sub);
    sb_free(&anchor);
    free(name);
    free(dir);
    return rc;
}

#endif /* HAVE_OTF2 */
