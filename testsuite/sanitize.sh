#!/bin/sh
# sanitize.sh DIR - make check-sanitize: configures the copy of the
# distribution in DIR (make distdir) with AddressSanitizer and
# UndefinedBehaviorSanitizer (CFLAGS, and the MPI Fortran compiler through a
# wrapper that adds the same flags, so that the SPMD programs and libhpfrt
# run sanitized too), builds it and runs the test suite there. Leak
# detection is on for hpfc, hpfpredict and the unit tests (the leaks of
# libffi, libotf2 and libgfortran suppressed), off in the MPI programs
# (through an mpirun wrapper). Valgrind is off in that build (it cannot run
# sanitized binaries).
set -eu
out=$(cd "$1" && pwd)
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cd "$out"
mpifc=$(command -v mpif90 || command -v mpifort || true)
mpirun=$(command -v mpirun || command -v mpiexec || true)
set --
if [ -n "$mpifc" ] && [ -n "$mpirun" ]; then
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$mpifc" "$san" >mpif90-sanitize
    # the MPI programs (the SPMD programs, the run-time tests, hpfcalibrate)
    # run without leak detection: the MPI library's components are unloaded
    # before the report, so their leaks cannot be told from the project's
    printf '#!/bin/sh\nASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" exec %s "$@"\n' \
        "$mpirun" >mpirun-sanitize
    chmod +x mpif90-sanitize mpirun-sanitize
    set -- MPIFC="$out/mpif90-sanitize" MPIRUN="$out/mpirun-sanitize"
fi
cat >lsan.supp <<'SUPP'
leak:libmpi
leak:libopen-pal
leak:libopen-rte
leak:libpmix
leak:libhwloc
leak:libevent
leak:libucp
leak:libucs
leak:libfabric
leak:libgfortran
leak:libotf2
leak:libffi
SUPP
./configure -q CFLAGS="-g -O1 $san" LDFLAGS="$san" "$@"
make -j"$(nproc)"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$out/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export HPF_SANITIZED=1             # calibrate.test: no plausibility ranges of times
make -j"$(nproc)" check VALGRIND=
