## runtime/local.mk - the mapping module (pure C, shared by hpfc, libhpfrt
## and hpfpredict) and the MPI run-time library libhpfrt.
noinst_LIBRARIES += runtime/libhpfmap.a
runtime_libhpfmap_a_SOURCES = runtime/hpfmap.c runtime/hpfmap.h

check_PROGRAMS += testsuite/unit/test_hpfmap
TESTS += testsuite/unit/test_hpfmap
testsuite_unit_test_hpfmap_SOURCES = testsuite/unit/test_hpfmap.c
testsuite_unit_test_hpfmap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/runtime
testsuite_unit_test_hpfmap_LDADD = runtime/libhpfmap.a -lm

# the collectives' algorithms told from their times (hpfcalibrate), pure C
check_PROGRAMS += testsuite/unit/test_collfit
TESTS += testsuite/unit/test_collfit
testsuite_unit_test_collfit_SOURCES = testsuite/unit/test_collfit.c runtime/collfit.c runtime/collfit.h
testsuite_unit_test_collfit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/runtime
testsuite_unit_test_collfit_LDADD = -lm
# the algorithms collfit picks from times on stdin (testsuite/smpi.test)
check_PROGRAMS += testsuite/smpi/collpick
testsuite_smpi_collpick_SOURCES = testsuite/smpi/collpick.c runtime/collfit.c runtime/collfit.h
testsuite_smpi_collpick_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/runtime
testsuite_smpi_collpick_LDADD = -lm

EXTRA_DIST += runtime/README.md

# libhpfrt: the MPI run-time library of the generated SPMD programs, built
# (and installed, with its headers and a pkg-config file) only when
# configure found a working MPI. hpfmap.c is compiled into it as well, so
# that the installed library is self-contained.
if HAVE_MPI
lib_LIBRARIES = runtime/libhpfrt.a
runtime_libhpfrt_a_SOURCES = runtime/hpfrt.c runtime/hpfrt_comm.c runtime/hpfrt_probe.c \
	runtime/hpfrt_impl.h runtime/hpfmap.c runtime/hpfrt.h runtime/hpfmap.h
runtime_libhpfrt_a_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
include_HEADERS = runtime/hpfrt.h runtime/hpfmap.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = runtime/hpfrt.pc
endif

# The MPI tests: Fortran programs built by testsuite/runtime.test with
# mpif90 against runtime/libhpfrt.a and run with mpirun (a TAP skip line
# without MPI). The compiled programs go to testsuite/runtime-out/.
TESTS += testsuite/runtime.test
EXTRA_DIST += runtime/hpfrt.pc.in runtime/mpi.env.in testsuite/runtime.test \
	$(wildcard $(srcdir)/testsuite/runtime/*.f90) testsuite/runtime/report.inc
dist_doc_DATA += doc/runtime.md
clean-local: clean-runtime-test
clean-runtime-test:
	-rm -rf testsuite/runtime-out
.PHONY: clean-runtime-test

# hpfcalibrate: measures the machine it runs on and writes its System
# Abstraction Graph (doc/runtime.md, "hpfcalibrate"); built and installed
# with MPI only, like libhpfrt. Its kernels are Fortran, compiled by the MPI
# Fortran compiler with the flags the SPMD programs get (CALIB_FCFLAGS: -O2,
# as the validation compiles them; `make CALIB_FCFLAGS=-O3` calibrates for
# other flags), so that a kernel's loop is the code a generated loop gets;
# the same compiler links the program (libgfortran and MPI come with it).
# The callees of the call kernels are a file of their own: not inlined.
# The kernels' loops are aligned to 64 bytes (CALIB_ALIGN, dropped when the
# compiler refuses it): a short loop's speed depends on where its code
# lies, up to a factor of two here, and unaligned the values would change
# whenever the program's code moves (doc/runtime.md).
CALIB_FCFLAGS = -O2
CALIB_ALIGN = -falign-loops=64
if HAVE_MPI
bin_PROGRAMS += runtime/hpfcalibrate
runtime_hpfcalibrate_SOURCES = runtime/hpfcalibrate.c runtime/calib.c runtime/calib_proc.c \
	runtime/calib_mem.c runtime/calib_comm.c runtime/calib_io.c runtime/calib_rt.c runtime/calib_check.c \
	runtime/calib.h runtime/collfit.c runtime/collfit.h
runtime_hpfcalibrate_CPPFLAGS = $(AM_CPPFLAGS) -DCALIB_FC='"$(MPIFC)"' \
	-DCALIB_FCFLAGS='"$(CALIB_FCFLAGS)"'
runtime_hpfcalibrate_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
runtime_hpfcalibrate_LDADD = runtime/calib_kernels.$(OBJEXT) runtime/calib_callee.$(OBJEXT) \
	runtime/libhpfrt.a $(MPI_LIBS)
runtime_hpfcalibrate_LINK = $(MPIFC) $(AM_LDFLAGS) $(LDFLAGS) -o $@
runtime/calib_kernels.$(OBJEXT): $(srcdir)/runtime/calib_kernels.f90
	$(AM_V_GEN)$(MKDIR_P) runtime && \
	  { $(MPIFC) $(CALIB_FCFLAGS) $(CALIB_ALIGN) -c -o $@ $(srcdir)/runtime/calib_kernels.f90 \
	      2>/dev/null || \
	    $(MPIFC) $(CALIB_FCFLAGS) -c -o $@ $(srcdir)/runtime/calib_kernels.f90; }
runtime/calib_callee.$(OBJEXT): $(srcdir)/runtime/calib_callee.f90
	$(AM_V_GEN)$(MKDIR_P) runtime && \
	  $(MPIFC) $(CALIB_FCFLAGS) -c -o $@ $(srcdir)/runtime/calib_callee.f90
CLEANFILES += runtime/calib_kernels.$(OBJEXT) runtime/calib_callee.$(OBJEXT)
endif
EXTRA_DIST += runtime/calib_kernels.f90 runtime/calib_callee.f90
