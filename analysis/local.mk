## analysis/local.mk - the abstraction parse (phase 2, first half): the
## AAG/SAAG, critical variables, clustering, operation counts and access
## information, as the convenience library libanalysis; and its unit test.
noinst_LIBRARIES += analysis/libanalysis.a
analysis_libanalysis_a_SOURCES = \
	analysis/aag.h analysis/aau.def analysis/aag_int.h \
	analysis/aag.c analysis/aag_ops.c analysis/aag_crit.c analysis/aag_dump.c \
	analysis/rue.c analysis/rue.h analysis/comm_reason.c analysis/comm_reason.h
analysis_libanalysis_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/runtime

check_PROGRAMS += testsuite/unit/test_aag
TESTS += testsuite/unit/test_aag
testsuite_unit_test_aag_SOURCES = testsuite/unit/test_aag.c
testsuite_unit_test_aag_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analysis -I$(top_srcdir)/runtime
testsuite_unit_test_aag_LDADD = analysis/libanalysis.a frontend/libfrontend.a \
	runtime/libhpfmap.a -lm

EXTRA_DIST += analysis/README.md
