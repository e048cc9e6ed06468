/* test_frontend.c - unit tests of front-end pieces that golden files show
 * poorly: the reader's position map, constant folding of PARAMETERs, the
 * diagnostic format, arenas and string buffers. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend.h"

static void read_logical(const char *text, SourceForm form, Logical *lg, int *errors)
{
    SrcFile *f = srcfile_from_bytes("t.f90", text, strlen(text));
    Diag d;
    FILE *sink = fopen("/dev/null", "w");
    diag_init(&d, sink);
    src_read_logical(f, form, &d, lg);
    *errors = d.nerrors;
    fclose(sink);
    srcfile_free(f);
}

/* Free form: '&' joins lines, comments go, positions stay exact. */
static void free_form_continuation(void **state)
{
    Logical lg;
    int errors;
    read_logical("x = 1 + & ! comment\n\n    & 2\n", FORM_FREE, &lg, &errors);
    assert_int_equal(errors, 0);
    assert_string_equal(lg.text, "x = 1 +  2\n");
    const char *two = strchr(lg.text, '2');
    Pos p = lg.pos[two - lg.text];
    assert_int_equal(p.line, 3);
    assert_int_equal(p.col, 7);
    src_logical_free(&lg);
}

/* A character context continued across lines keeps its blanks. */
static void free_form_string_continuation(void **state)
{
    Logical lg;
    int errors;
    read_logical("print *, 'ab&\n   &cd'\n", FORM_FREE, &lg, &errors);
    assert_int_equal(errors, 0);
    assert_string_equal(lg.text, "print *, 'abcd'\n");
    src_logical_free(&lg);
}

/* ';' separates statements; a '!' inside a string is not a comment. */
static void free_form_semicolon(void **state)
{
    Logical lg;
    int errors;
    read_logical("a = 1; s = '!;'  ! c\n", FORM_FREE, &lg, &errors);
    assert_int_equal(errors, 0);
    assert_string_equal(lg.text, "a = 1\n s = '!;'  \n");
    src_logical_free(&lg);
}

/* Fixed form: label to the front, column-6 continuation, text ends at 72,
 * directive sentinel in column 1. */
static void fixed_form_columns(void **state)
{
    Logical lg;
    int errors;
    char line72[128];
    memset(line72, ' ', 80);
    memcpy(line72 + 6, "Y = 2", 5);
    memcpy(line72 + 72, "IGNORED", 7);
    line72[79] = '\n';
    line72[80] = '\0';
    char text[512];
    snprintf(text, sizeof text,
             "C comment\n   10 X = 1 +\n     &    3\n%sCHPF$ TEMPLATE T(4)\n", line72);
    read_logical(text, FORM_FIXED, &lg, &errors);
    assert_int_equal(errors, 0);
    assert_string_equal(lg.text, "10 X = 1 +    3\nY = 2\n\001TEMPLATE T(4)\n");
    assert_int_equal(lg.pos[0].line, 2);
    assert_int_equal(lg.pos[0].col, 4);
    src_logical_free(&lg);
}

static SrcFile *cur_file;   /* the tree's locations point into it */

static Node *compile(const char *text, Arena *a, int *errors, Define *defs, int ndefs)
{
    srcfile_free(cur_file);
    SrcFile *f = cur_file = srcfile_from_bytes("t.f90", text, strlen(text));
    Diag d;
    FILE *sink = fopen("/dev/null", "w");
    diag_init(&d, sink);
    Node *n = frontend_compile(f, FORM_FREE, a, &d, defs, ndefs);
    *errors = d.nerrors;
    fclose(sink);
    return n;
}

static Symbol *symbol(Node *file, const char *name)
{
    Node *u = file->u.list.items.v[0];
    return scope_lookup(u->u.unit.scope, name);
}

/* PARAMETER values fold through arithmetic, intrinsics and other PARAMETERs. */
static void parameter_folding(void **state)
{
    Arena *a = arena_new("test");
    int errors;
    Node *file = compile("program p\n"
                         "  integer, parameter :: n = 2**10, m = max(n/3, 7) + mod(n, 10)\n"
                         "  real(8), parameter :: h = 1.0d0 / n\n"
                         "  logical, parameter :: big = n > 1000 .and. .not. m < 0\n"
                         "end program p\n", a, &errors, NULL, 0);
    assert_int_equal(errors, 0);
    assert_non_null(file);
    assert_int_equal(symbol(file, "n")->value.i, 1024);
    assert_int_equal(symbol(file, "m")->value.i, 341 + 4);
    assert_true(symbol(file, "h")->value.r == 1.0 / 1024);
    assert_int_equal(symbol(file, "big")->value.i, 1);
    arena_free(a);
}

/* -D replaces a PARAMETER's value, and array bounds follow it. */
static void define_override(void **state)
{
    Arena *a = arena_new("test");
    int errors;
    Define d = {"n", "64", 0};
    Node *file = compile("program p\n  integer, parameter :: n = 8\n  real :: x(0:n+1)\n"
                         "end program p\n", a, &errors, &d, 1);
    assert_int_equal(errors, 0);
    assert_true(d.used);
    Symbol *x = symbol(file, "x");
    assert_int_equal(x->rank, 1);
    assert_int_equal(x->lo[0], 0);
    assert_int_equal(x->hi[0], 65);
    arena_free(a);
}

/* Integer overflow in a constant expression is an error, not a wrap. */
static void overflow_is_an_error(void **state)
{
    Arena *a = arena_new("test");
    int errors;
    compile("program p\n  integer, parameter :: n = 2**62 * 4\nend program p\n", a, &errors,
            NULL, 0);
    assert_int_equal(errors, 1);   /* the overflow (the value is then not given again) */
    arena_free(a);
}

/* GCC's format: file:line:col: error: message, the line, a caret. */
static void diagnostic_format(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    Diag d;
    diag_init(&d, out);
    SrcFile *f = srcfile_from_bytes("a.f90", "x = y +\n", 8);
    diag_error(&d, (Loc){f, 1, 5, 1, 7}, "bad %s", "thing");
    fclose(out);
    assert_string_equal(buf, "a.f90:1:5: error: bad thing\n  x = y +\n      ^~~\n");
    assert_int_equal(d.nerrors, 1);
    free(buf);
    srcfile_free(f);
}

static void arena_and_strbuf(void **state)
{
    Arena *a = arena_new("test");
    char *big = arena_alloc(a, 1 << 20);
    big[(1 << 20) - 1] = 1;
    assert_string_equal(arena_printf(a, "%d-%s", 42, "x"), "42-x");
    assert_true(arena_used(a) >= (1 << 20));
    StrBuf b = {0};
    for (int i = 0; i < 1000; i++)
        sb_putc(&b, 'a' + i % 26);
    assert_int_equal(b.len, 1000);
    assert_int_equal(b.s[26], 'a');
    sb_free(&b);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(free_form_continuation),
        cmocka_unit_test(free_form_string_continuation),
        cmocka_unit_test(free_form_semicolon),
        cmocka_unit_test(fixed_form_columns),
        cmocka_unit_test(parameter_folding),
        cmocka_unit_test(define_override),
        cmocka_unit_test(overflow_is_an_error),
        cmocka_unit_test(diagnostic_format),
        cmocka_unit_test(arena_and_strbuf),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    srcfile_free(cur_file);
    return failed;
}
