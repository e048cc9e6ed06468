## testsuite/local.mk - everything `make check` runs, through Automake's
## parallel harness with the TAP driver. `make update-tests` rewrites the
## golden files deliberately (review the diff before committing).
TEST_EXTENSIONS = .test
TEST_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_DRIVER = $(TEST_LOG_DRIVER)
AM_TESTS_ENVIRONMENT = srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	FC_REF='$(FC_REF)' VALGRIND='$(VALGRIND)' CMOCKA_MESSAGE_OUTPUT=TAP; \
	export srcdir top_builddir FC_REF VALGRIND CMOCKA_MESSAGE_OUTPUT;

TESTS += testsuite/cli.test testsuite/ast.test testsuite/errors.test \
	testsuite/roundtrip.test testsuite/stress.test testsuite/limits.test testsuite/fuzz.test \
	testsuite/spmd.test testsuite/spmd-ir.test testsuite/predict.test
# the outputs of hpfpredict beyond the report (doc/outputs.md) and its manual page
TESTS += testsuite/outputs.test
EXTRA_DIST += testsuite/outputs.test $(wildcard $(srcdir)/testsuite/outputs/*)
# the traces of hpfpredict --trace (doc/traces.md), and its interactive mode -i
TESTS += testsuite/traces.test testsuite/interactive.test
EXTRA_DIST += testsuite/traces.test testsuite/interactive.test
# the paper's findings (section 5.2) checked against the model (doc/experiments.md)
TESTS += testsuite/findings.test testsuite/compare.test testsuite/automap.test
EXTRA_DIST += testsuite/findings.test testsuite/compare.test testsuite/automap.test \
	testsuite/automap/README.md testsuite/automap/stencil.f90 testsuite/automap/triangular.f \
	testsuite/automap/transpose.f90 testsuite/automap/transpose_t.f90 testsuite/automap/offset.f90 \
	testsuite/automap/twophase.f90 testsuite/automap/twophase_redist.f90
# the experiments of --set, -finline and -floop-reorder, and sweeps (-D
# lists, their tables and --plot)
TESTS += testsuite/experiments.test
EXTRA_DIST += testsuite/experiments.test
# hpfcalibrate: a quick calibration under mpirun and the description it
# writes (doc/runtime.md); skipped without MPI
TESTS += testsuite/calibrate.test
EXTRA_DIST += testsuite/calibrate.test
# properties of every prediction over every example and test program:
# every executed statement charged, lines adding up, neutral rewrites
TESTS += testsuite/properties.test
EXTRA_DIST += testsuite/properties.test testsuite/rewrite.py \
	$(wildcard $(srcdir)/testsuite/progs/*.f90) $(wildcard $(srcdir)/testsuite/progs/*.f) \
	$(wildcard $(srcdir)/testsuite/progs/README.md)
# resource usage equations: --rue, --forecast, --sweet-spot, --rue-check
# (doc/forecasting.md)
TESTS += testsuite/forecast.test
# the report page (--html), in headless Chromium where it is installed
TESTS += testsuite/html.test
EXTRA_DIST += testsuite/html.test testsuite/html_check.py testsuite/html/reasons.f90
# the trace and the callgrind file in ViTE and KCachegrind, under Xvfb
TESTS += testsuite/viewers.test
EXTRA_DIST += testsuite/viewers.test
clean-local: clean-html-shots
clean-html-shots:
	rm -rf testsuite/html-shots testsuite/viewer-shots
.PHONY: clean-html-shots
# software probes: --bbv, --phases, --probe-predict, HPFRT_PROBE (doc/probes.md)
TESTS += testsuite/probes.test
EXTRA_DIST += testsuite/probes.test $(wildcard $(srcdir)/testsuite/probes/*.f90) \
	$(wildcard $(srcdir)/testsuite/probes/*.f)
EXTRA_DIST += testsuite/forecast.test $(wildcard $(srcdir)/testsuite/forecast/*.f90) \
	$(wildcard $(srcdir)/testsuite/forecast/*.f)
# the validation harness (make validate, doc/validation.md) on two programs
TESTS += testsuite/validate.test
EXTRA_DIST += testsuite/validate.test
# the outside check of the communication model: SimGrid's SMPI on a
# hypercube written from the SAG (doc/validation.md); skipped without it
TESTS += testsuite/smpi.test
EXTRA_DIST += testsuite/smpi.test $(wildcard $(srcdir)/testsuite/smpi/*.f90) \
	testsuite/smpi/hypercube.awk testsuite/smpi/crossbar.awk testsuite/smpi/collalg.c

# the fuzz targets (doc/fuzzing.md), each replayed over its stored corpus
# by testsuite/fuzz.test; make fuzz runs them under libFuzzer
check_PROGRAMS += testsuite/fuzz/fuzz_replay testsuite/fuzz/fuzz_replay_sag \
	testsuite/fuzz/fuzz_replay_predict
testsuite_fuzz_fuzz_replay_SOURCES = testsuite/fuzz/fuzz_replay.c testsuite/fuzz/fuzz_frontend.c
testsuite_fuzz_fuzz_replay_LDADD = frontend/libfrontend.a runtime/libhpfmap.a -lm
testsuite_fuzz_fuzz_replay_sag_SOURCES = testsuite/fuzz/fuzz_replay.c testsuite/fuzz/fuzz_sag.c
testsuite_fuzz_fuzz_replay_sag_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp
testsuite_fuzz_fuzz_replay_sag_LDADD = interp/libinterp.a frontend/libfrontend.a \
	runtime/libhpfmap.a $(FFI_LIBS) -ldl -lm
testsuite_fuzz_fuzz_replay_predict_SOURCES = testsuite/fuzz/fuzz_replay.c \
	testsuite/fuzz/fuzz_predict.c
testsuite_fuzz_fuzz_replay_predict_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/interp \
	-I$(top_srcdir)/analysis -I$(top_srcdir)/runtime
testsuite_fuzz_fuzz_replay_predict_LDADD = $(ENGINE_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += testsuite/unit/test_frontend
TESTS += testsuite/unit/test_frontend
testsuite_unit_test_frontend_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_frontend_LDADD = frontend/libfrontend.a runtime/libhpfmap.a $(CMOCKA_LIBS) -lm
endif

EXTRA_DIST += testsuite/lib.sh testsuite/cli.test testsuite/ast.test \
	testsuite/errors.test testsuite/roundtrip.test testsuite/stress.test testsuite/limits.test \
	testsuite/fuzz.test testsuite/spmd.test testsuite/spmd-ir.test testsuite/predict.test testsuite/README.md testsuite/errors/README.md \
	$(wildcard $(srcdir)/testsuite/ast/*.f90) $(wildcard $(srcdir)/testsuite/ast/*.f) \
	$(wildcard $(srcdir)/testsuite/ast/*.ast) \
	$(wildcard $(srcdir)/testsuite/errors/*.f90) $(wildcard $(srcdir)/testsuite/errors/*.f) \
	$(wildcard $(srcdir)/testsuite/errors/*.err) \
	$(wildcard $(srcdir)/testsuite/fuzz/corpus/*) \
	$(wildcard $(srcdir)/testsuite/fuzz/corpus-sag/*) \
	$(wildcard $(srcdir)/testsuite/fuzz/corpus-predict/*) testsuite/fuzz/build.sh \
	testsuite/sanitize.sh \
	$(wildcard $(srcdir)/testsuite/ir/*.spmd) \
	$(wildcard $(srcdir)/testsuite/predict/*.np*) $(wildcard $(srcdir)/testsuite/aag/*.saag) \
	$(wildcard $(srcdir)/testsuite/spmd/*.f90) $(wildcard $(srcdir)/testsuite/spmd/*.f) $(wildcard $(srcdir)/testsuite/spmd/*.in) \
	$(wildcard $(srcdir)/testsuite/spmd/README.md)

update-tests: all
	$(AM_V_GEN)UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  VALGRIND= FC_REF='$(FC_REF)' $(SHELL) $(srcdir)/testsuite/ast.test >/dev/null; \
	UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  VALGRIND= $(SHELL) $(srcdir)/testsuite/errors.test >/dev/null; \
	UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  $(SHELL) $(srcdir)/testsuite/spmd-ir.test >/dev/null; \
	UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  VALGRIND= $(SHELL) $(srcdir)/testsuite/sag.test >/dev/null; \
	UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  $(SHELL) $(srcdir)/testsuite/predict.test >/dev/null; \
	UPDATE=1 srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  VALGRIND= $(SHELL) $(srcdir)/testsuite/outputs.test >/dev/null
.PHONY: update-tests

# what the SPMD oracle builds and runs (testsuite/spmd.test)
clean-local: clean-spmd-test
clean-spmd-test:
	-rm -rf testsuite/spmd-out testsuite/smpi-out
.PHONY: clean-spmd-test

# make fuzz: the three fuzz targets under libFuzzer with ASan and UBSan
# (clang needed; doc/fuzzing.md), FUZZ_SECONDS each (default 60), in
# fuzz-build/, each from a copy of its stored corpus; findings are left
# there as crash-*, leak-*, timeout-*.
FUZZ_SECONDS = 60
fuzz: all
	$(SHELL) $(srcdir)/testsuite/fuzz/build.sh '$(srcdir)' '$(top_builddir)' fuzz-build \
	  '$(FFI_LIBS) $(OTF2_LIBS)'
	@for t in frontend:corpus sag:corpus-sag predict:corpus-predict; do \
	  name=$${t%%:*}; corpus=$${t#*:}; \
	  mkdir -p fuzz-build/$$corpus && cp $(srcdir)/testsuite/fuzz/$$corpus/* fuzz-build/$$corpus/; \
	  echo "fuzz: $$name for $(FUZZ_SECONDS) s"; \
	  (cd fuzz-build && ./fuzz_$$name -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	    -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$$name- \
	    $$corpus >$$name.log 2>&1); \
	  grep -E '^stat::number_of_executed_units|^(==[0-9]+==ERROR|SUMMARY)' fuzz-build/$$name.log; \
	done
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz-build
.PHONY: clean-fuzz

# make check-sanitize: the test suite on an ASan+UBSan build of everything,
# the SPMD programs included (testsuite/sanitize.sh, in sanitize-build/)
check-sanitize:
	rm -rf sanitize-build
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=sanitize-build
	$(SHELL) $(srcdir)/testsuite/sanitize.sh sanitize-build
.PHONY: check-sanitize
clean-local: clean-sanitize
clean-sanitize:
	-rm -rf sanitize-build
.PHONY: clean-sanitize
