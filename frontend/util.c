/* util.c - allocation that never returns NULL, arenas, string buffers.
 * An out-of-memory condition is an internal error: exit status 4, as the
 * command-line contract says. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void fatal(const char *fmt, ...)
{
    va_list ap;
    fputs("hpf: internal error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(4);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fatal("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        fatal("out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        fatal("out of memory (%zu bytes)", n);
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* Arena: a chain of chunks; large requests get a chunk of their own. */
typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
    const char *name;   /* lifetime it stands for, for debugging */
    Chunk *head;
    size_t total;       /* bytes handed out */
};

enum { CHUNK_SIZE = 64 * 1024 };

Arena *arena_new(const char *name)
{
    Arena *a = xcalloc(1, sizeof *a);
    a->name = name;
    return a;
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->size - a->head->used < n) {
        size_t size = n > CHUNK_SIZE / 4 ? n : CHUNK_SIZE;
        Chunk *c = xmalloc(sizeof *c + size);
        c->size = size;
        c->used = 0;
        if (a->head && size == n) {
            /* keep the current chunk on top: its free room stays usable */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
        c->used = n;
        a->total += n;
        return memset(c->data + c->used - n, 0, n);
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    a->total += n;
    return memset(p, 0, n);
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    StrBuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    char *p = arena_strndup(a, b.s ? b.s : "", b.len);
    sb_free(&b);
    return p;
}

size_t arena_used(const Arena *a)
{
    return a->total;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static void sb_reserve(StrBuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void sb_putn(StrBuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_putc(StrBuf *b, int c)
{
    char ch = (char)c;
    sb_putn(b, &ch, 1);
}

void sb_puts(StrBuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        fatal("bad format string");
    sb_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_clear(StrBuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void sb_free(StrBuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void vec_push(Arena *a, PtrVec *v, void *p)
{
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        void **nv = a ? arena_alloc(a, (size_t)cap * sizeof *nv)
                      : xrealloc(v->v, (size_t)cap * sizeof *nv);
        if (a && v->n)
            memcpy(nv, v->v, (size_t)v->n * sizeof *nv);
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = p;
}

int str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int str_ieqn(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
        if (!a[i])
            return 1;
    }
    return 1;
}

void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            putc(*p, out);
    }
    putc('"', out);
}

void csv_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; s && *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

/* ---- pointer maps ---- */

size_t hash_u64(uint64_t x, size_t cap)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t hash_ptr(const void *p, int cap)
{
    return hash_u64((uint64_t)(uintptr_t)p, (size_t)cap);
}

void *ptrmap_get(const PtrMap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = hash_ptr(key, m->cap); m->keys[i]; i = (i + 1) & (size_t)(m->cap - 1))
        if (m->keys[i] == key)
            return m->vals[i];
    return NULL;
}

void ptrmap_put(PtrMap *m, const void *key, void *val)
{
    if (2 * (m->n + 1) > m->cap) {
        PtrMap g = {0};
        g.cap = m->cap ? 2 * m->cap : 16;
        g.keys = xcalloc((size_t)g.cap, sizeof *g.keys);
        g.vals = xcalloc((size_t)g.cap, sizeof *g.vals);
        for (int i = 0; i < m->cap; i++)
            if (m->keys[i])
                ptrmap_put(&g, m->keys[i], m->vals[i]);
        ptrmap_free(m);
        *m = g;
    }
    size_t i = hash_ptr(key, m->cap);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (size_t)(m->cap - 1);
    if (!m->keys[i])
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

void ptrmap_free(PtrMap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- files ---- */

char *file_read_all(const char *path, size_t *len, int *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        *err = errno;
        return NULL;
    }
    StrBuf b = {0};
    char buf[65536];
    size_t n;
    errno = 0;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        if (b.len + n > FILE_MAX) {   /* /dev/zero, or a file no program is */
            fclose(fp);
            sb_free(&b);
            *err = EFBIG;
            return NULL;
        }
        sb_putn(&b, buf, n);
    }
    int failed = ferror(fp), bad = failed ? errno : 0;
    fclose(fp);
    if (failed) {
        sb_free(&b);
        *err = bad;
        return NULL;
    }
    *len = b.len;
    return b.s ? b.s : xstrdup("");
}

int file_same(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev
           && x.st_ino == y.st_ino;
}

const char *file_error(int err)
{
    if (err == EFBIG)
        return "larger than 64 MiB, the limit of an input file";
    return err ? strerror(err) : "read error";
}

int usage_error(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: error: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    return 1;
}

int usage_getopt(const char *prog, int c, const char *word)
{
    return usage_error(prog, c == ':' ? "option '%s' needs an argument" : "unknown option '%s'",
                       word);
}

int usage_one_input(const char *prog, int optind, int argc)
{
    if (optind == argc - 1)
        return 0;
    return usage_error(prog, "%s", optind >= argc ? "no input file"
                                                  : "only one input file at a time");
}
