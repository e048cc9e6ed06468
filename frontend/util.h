/* util.h - memory that never returns NULL, arenas with named lifetimes,
 * growable string buffers and pointer vectors shared by every stage. */
#ifndef HPF_UTIL_H
#define HPF_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HPF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define HPF_NORETURN __attribute__((noreturn))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
HPF_NORETURN void fatal(const char *fmt, ...) HPF_PRINTF(1, 2);

/* An arena owns every object of one lifetime (the AST and symbols of a
 * compilation); nothing in it is freed alone, all of it goes at once. */
typedef struct Arena Arena;
Arena *arena_new(const char *name);
void *arena_alloc(Arena *a, size_t n);   /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) HPF_PRINTF(2, 3);
size_t arena_used(const Arena *a);
void arena_free(Arena *a);

/* A growable, always NUL-terminated byte string on the heap. */
typedef struct {
    char *s;      /* contents, NUL-terminated once anything was written */
    size_t len;   /* bytes used, terminator excluded */
    size_t cap;   /* bytes allocated */
} StrBuf;
void sb_putc(StrBuf *b, int c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) HPF_PRINTF(2, 3);
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
void sb_clear(StrBuf *b);
void sb_free(StrBuf *b);

/* A growable array of pointers, its storage in an arena (or the heap when
 * the arena is NULL). */
typedef struct {
    void **v;
    int n, cap;
} PtrVec;
void vec_push(Arena *a, PtrVec *v, void *p);

/* A wrong command line: "PROG: error: " and fmt with arg on standard
 * error, then where to find the usage; returns the exit status 1. */
int usage_error(const char *prog, const char *fmt, const char *arg);
/* The same for what getopt_long returned for word: ':' (an option
 * without its argument) or '?' (an unknown option). */
int usage_getopt(const char *prog, int c, const char *word);
/* The same unless exactly one operand (the input file) follows the
 * options; 0 when it does. */
int usage_one_input(const char *prog, int optind, int argc);

/* The whole of a file, on the heap, NUL-terminated (*len bytes before the
 * NUL). NULL when it cannot be read: *err is then the errno of the open or
 * the read (0: not known), EFBIG over FILE_MAX bytes; file_error(*err)
 * says it in words. */
enum { FILE_MAX = 64 << 20 };
char *file_read_all(const char *path, size_t *len, int *err);
const char *file_error(int err);
/* Whether paths a and b name one existing file (the same device and inode):
 * an output that would overwrite an input. */
int file_same(const char *a, const char *b);

/* A map from pointers to pointers (open addressing, heap storage); a key
 * not in it gives NULL. */
typedef struct {
    const void **keys;
    void **vals;
    int n, cap;
} PtrMap;
void *ptrmap_get(const PtrMap *m, const void *key);
/* The slot of key x in an open-addressing table of cap slots (a power of
 * two): every bit of x reaches the slot's bits (a multiplication alone
 * leaves the low bits of the slot to the low bits of the key). */
size_t hash_u64(uint64_t x, size_t cap);
/* A 64-bit hash of a string (FNV-1a). */
uint64_t hash_str(const char *s);
void ptrmap_put(PtrMap *m, const void *key, void *val);
void ptrmap_free(PtrMap *m);

int str_ieq(const char *a, const char *b);          /* ASCII, case-blind */

/* Quoted strings for machine-readable outputs (NULL: empty): a JSON string
 * literal; a CSV field (RFC 4180, quotes doubled). */
void json_string(FILE *out, const char *s);
void csv_string(FILE *out, const char *s);
int str_ieqn(const char *a, const char *b, size_t n);

#endif
