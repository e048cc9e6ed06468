## frontend/local.mk - the front end: reader, scanner, token filter,
## grammar, AST, semantic analysis, dump and unparse; and the hpfc program.
noinst_LIBRARIES += frontend/libfrontend.a
frontend_libfrontend_a_SOURCES = \
	frontend/util.c frontend/util.h \
	frontend/diag.c frontend/diag.h \
	frontend/source.c frontend/source.h \
	frontend/scan.l frontend/scan.h \
	frontend/parse.y frontend/parser.h \
	frontend/filter.c frontend/build.c \
	frontend/ast.c frontend/ast.h frontend/ast.def \
	frontend/symtab.c frontend/sema.h \
	frontend/sema.c frontend/sema_decl.c frontend/sema_expr.c frontend/sema_intrinsic.c frontend/sema_fold.c frontend/sema_int.h \
	frontend/dump.c frontend/unparse.c \
	frontend/frontend.c frontend/frontend.h frontend/remap.c frontend/remap.h \
	frontend/spmd.h frontend/lower_int.h frontend/mapping.c frontend/dynamic.c frontend/passing.c \
	frontend/lower.c frontend/lower_goto.c frontend/lower_ir.c frontend/lower_expr.c frontend/spmd_dump.c frontend/emit.c frontend/emit_int.h frontend/emit_loop.c frontend/probe_synth.c

# the scanner needs the grammar's token codes
BUILT_SOURCES += frontend/parse.h
frontend/scan.$(OBJEXT) frontend/filter.$(OBJEXT) frontend/build.$(OBJEXT): frontend/parse.h

bin_PROGRAMS += hpfc
hpfc_SOURCES = frontend/hpfc.c frontend/automap.c frontend/automap.h
hpfc_LDADD = frontend/libfrontend.a runtime/libhpfmap.a -lm

EXTRA_DIST += frontend/README.md

# Alternative mappings (remap.c): enumeration, the user's spec, printing,
# and every candidate of every example compiled and lowered.
check_PROGRAMS += testsuite/unit/test_remap
TESTS += testsuite/unit/test_remap
testsuite_unit_test_remap_SOURCES = testsuite/unit/test_remap.c
testsuite_unit_test_remap_LDADD = frontend/libfrontend.a runtime/libhpfmap.a -lm
