## interp/local.mk - the SAG reader and the functional interpreter as the
## convenience library libinterp; the interpretation engine and its output
## writers as libengine (below); hpfpredict.
noinst_LIBRARIES += interp/libinterp.a
interp_libinterp_a_SOURCES = interp/sag.c interp/sag.h \
	interp/fi.c interp/fi_exec.c interp/fi.h interp/fi_int.h interp/fi_expr_int.h interp/fi_value.c interp/fi_array.c \
	interp/fi_intrinsic.c interp/fi_ffi.c interp/fi_expr.c interp/fi_io.c
interp_libinterp_a_CPPFLAGS = $(AM_CPPFLAGS) $(FFI_CFLAGS)
nodist_interp_libinterp_a_SOURCES = interp/sag_builtin.c

# The shipped machine description, compiled in as the default
# (sag_builtin("ipsc860")) and installed for `-sag ipsc860`. Each line
# becomes a C string literal (interp/text2c.sh).
sagdir = $(pkgdatadir)/sag
dist_sag_DATA = examples/ipsc860.sag
interp/sag_builtin.c: $(srcdir)/examples/ipsc860.sag $(srcdir)/interp/text2c.sh
	$(AM_V_GEN)$(MKDIR_P) interp && $(SHELL) $(srcdir)/interp/text2c.sh sag_ipsc860_text \
	  $(srcdir)/examples/ipsc860.sag >$@-t && mv -f $@-t $@
CLEANFILES += interp/sag_builtin.c

# The report page's template (--html), compiled in as html_page_text, the
# same way.
EXTRA_DIST += interp/report_page.html interp/text2c.sh
interp/html_page.c: $(srcdir)/interp/report_page.html $(srcdir)/interp/text2c.sh
	$(AM_V_GEN)$(MKDIR_P) interp && $(SHELL) $(srcdir)/interp/text2c.sh html_page_text \
	  $(srcdir)/interp/report_page.html >$@-t && mv -f $@-t $@
CLEANFILES += interp/html_page.c

# Tests: the unit test of the reader, and sag_check over bad inputs and the
# shipped description (testsuite/sag.test).
check_PROGRAMS += testsuite/unit/test_sag testsuite/sag_check
TESTS += testsuite/unit/test_sag testsuite/sag.test
testsuite_unit_test_sag_SOURCES = testsuite/unit/test_sag.c
testsuite_unit_test_sag_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp
testsuite_unit_test_sag_LDADD = interp/libinterp.a frontend/libfrontend.a -lm
testsuite_sag_check_SOURCES = testsuite/sag_check.c
testsuite_sag_check_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp
testsuite_sag_check_LDADD = interp/libinterp.a frontend/libfrontend.a

# The functional interpreter's unit test: small programs compiled from
# strings and run statement by statement. -rdynamic: the EXTERNAL function
# the test defines is found with dlsym, as a program's would be.
check_PROGRAMS += testsuite/unit/test_fi
TESTS += testsuite/unit/test_fi
testsuite_unit_test_fi_SOURCES = testsuite/unit/test_fi.c
testsuite_unit_test_fi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp
testsuite_unit_test_fi_LDFLAGS = -rdynamic
testsuite_unit_test_fi_LDADD = interp/libinterp.a frontend/libfrontend.a runtime/libhpfmap.a \
	$(FFI_LIBS) -ldl -lm

dist_doc_DATA += doc/sag.md
EXTRA_DIST += interp/README.md testsuite/sag.test \
	$(wildcard $(srcdir)/testsuite/sag/*.sag) $(wildcard $(srcdir)/testsuite/sag/*.err)

# The interpretation engine and the report (they read the AAG, so they sit
# in a library of their own, linked before analysis/), and hpfpredict.
noinst_LIBRARIES += interp/libengine.a
interp_libengine_a_SOURCES = interp/engine.c interp/engine.h interp/engine_int.h \
	interp/engine_sag.c interp/engine_net.c interp/engine_space.c interp/engine_seq.c \
	interp/engine_walk.c interp/engine_comm.c interp/report.c interp/report.h \
	interp/trace.c interp/trace.h interp/trace_int.h interp/trace_otf2.c interp/plot.c interp/plot.h \
	interp/forecast.c interp/forecast.h interp/rue_aag.c interp/rue_aag.h interp/bbv.c interp/bbv.h interp/phases.c interp/phases.h \
	interp/html.c interp/html.h interp/mapsearch.c interp/mapsearch.h
nodist_interp_libengine_a_SOURCES = interp/html_page.c
interp_libengine_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp -I$(top_srcdir)/analysis \
	-I$(top_srcdir)/runtime $(OTF2_CFLAGS)
ENGINE_LIBS = interp/libengine.a interp/libinterp.a analysis/libanalysis.a \
	frontend/libfrontend.a runtime/libhpfmap.a $(FFI_LIBS) $(OTF2_LIBS) -ldl -lm

bin_PROGRAMS += hpfpredict
hpfpredict_SOURCES = interp/hpfpredict.c interp/stages.c interp/interact.c interp/interact.h \
	interp/forecast_run.c interp/forecast_run.h interp/forecast_plot.c interp/probe.c interp/probe.h
hpfpredict_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp -I$(top_srcdir)/analysis \
	-I$(top_srcdir)/runtime -DPKGDATADIR='"$(pkgdatadir)"' $(READLINE_CFLAGS)
hpfpredict_LDADD = $(ENGINE_LIBS) $(READLINE_LIBS)

# The engine's unit test: each interpretation function and the
# communication model against hand-computed times on a small SAG.
check_PROGRAMS += testsuite/unit/test_engine
TESTS += testsuite/unit/test_engine
testsuite_unit_test_engine_SOURCES = testsuite/unit/test_engine.c
testsuite_unit_test_engine_CPPFLAGS = $(interp_libengine_a_CPPFLAGS)
testsuite_unit_test_engine_LDADD = $(ENGINE_LIBS)

# The trace writers' unit test: a synthetic trace written in every format,
# checked by testsuite/trace_check.py (python3) and, for OTF2, read back
# with otf2-print.
check_PROGRAMS += testsuite/unit/test_trace
TESTS += testsuite/unit/test_trace
testsuite_unit_test_trace_SOURCES = testsuite/unit/test_trace.c
testsuite_unit_test_trace_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp \
	-DTRACE_CHECK='"$(abs_top_srcdir)/testsuite/trace_check.py"' -DOTF2_PRINT='"$(OTF2_PRINT)"'
testsuite_unit_test_trace_LDADD = interp/libengine.a frontend/libfrontend.a $(OTF2_LIBS) -lm
EXTRA_DIST += testsuite/trace_check.py testsuite/unit/tap.h

# The sweep plots and tables' unit test: SVG, text, CSV and JSON of
# synthetic sweeps; python3, when there is one, parses the SVG and JSON.
# resource usage equations and their evaluation, by hand
check_PROGRAMS += testsuite/unit/test_rue
TESTS += testsuite/unit/test_rue
testsuite_unit_test_rue_SOURCES = testsuite/unit/test_rue.c
testsuite_unit_test_rue_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp -I$(top_srcdir)/analysis
testsuite_unit_test_rue_LDADD = interp/libengine.a analysis/libanalysis.a runtime/libhpfmap.a -lm
# the clustering of the software probes: planted clusters, the paper's figures
check_PROGRAMS += testsuite/unit/test_phases
TESTS += testsuite/unit/test_phases
testsuite_unit_test_phases_SOURCES = testsuite/unit/test_phases.c
testsuite_unit_test_phases_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp
testsuite_unit_test_phases_LDADD = interp/libengine.a frontend/libfrontend.a -lm

check_PROGRAMS += testsuite/unit/test_plot
TESTS += testsuite/unit/test_plot
testsuite_unit_test_plot_SOURCES = testsuite/unit/test_plot.c
testsuite_unit_test_plot_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp -I$(top_srcdir)/frontend
testsuite_unit_test_plot_LDADD = interp/libengine.a frontend/libfrontend.a -lm
