#!/bin/sh
# spmd.sh - make bench-spmd: the speed of the SPMD programs hpfc emits
# (doc/spmd-bench.md). For every program it builds the sequential program
# with gfortran (the directives are comments to it) and the SPMD program
# with hpfc and mpif90 at the same flags, checks that they print the same,
# and measures
#   * the CPU time of the sequential program (the whole process), and of
#     the SPMD program on one process from hpfrt_init to hpfrt_finalize
#     (validation/hpfv_timer.f90: MPI's start-up is not the program's);
#     their ratio, target at most RATIO_TARGET (1.3);
#   * the SPMD program's elapsed time on 1 and on 2 processes, and the
#     speed-up, target at least SPEEDUP_TARGET (1.6).
# Each time is the fastest of REPS runs. A program's repetition PARAMETER
# (nrep, nsteps, maxit) is raised until its sequential run lasts MIN_TIME.
#
# Variables (environment, or make bench-spmd VAR=...):
#   PROGS      names in examples/ or bench/spmd/ (without .f90), each with
#              its size as NAME:N (default: the validation programs at the
#              largest size of the suite's range, and bench/spmd/'s)
#   REPS       runs of each measurement (default 3)
#   MIN_TIME   the shortest sequential run, seconds (default 0.3)
#   FFLAGS     flags of both compilations (default -O2)
#   OUT        output folder (default bench/spmd-out)
#   RUN_ONLY   1: measure the programs an earlier run built in OUT, at the
#              repetition counts it chose, without building anything (for
#              a machine that has mpirun and the run-time libraries but no
#              compilers: build on one machine, copy OUT, measure there)
# Exit status: 0 when the benchmark ran (its verdicts are in the table),
# 2 when it cannot (no MPI, no gfortran, no hpfc).
: "${srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=.}"
top_builddir=$(cd "$top_builddir" && pwd) || { echo "bench-spmd: error: no build folder" >&2; exit 2; }
srcdir=$(cd "$srcdir" && pwd) || { echo "bench-spmd: error: no source folder" >&2; exit 2; }
say() { echo "bench-spmd: $*" >&2; }
die() { echo "bench-spmd: error: $*" >&2; exit 2; }
RTOL=${RTOL:-1e-10}
. "$srcdir/validation/common.sh"

RUN_ONLY=${RUN_ONLY:-0}
HPFC=${HPFC:-$top_builddir/hpfc}
[ -r "$top_builddir/runtime/mpi.env" ] && . "$top_builddir/runtime/mpi.env"
[ "${HAVE_MPI:-no}" = yes ] || die "configure found no MPI (mpif90, mpirun): nothing to measure"
lib="$top_builddir/runtime/libhpfrt.a"
FC_SEQ=${FC_SEQ:-$(command -v gfortran 2>/dev/null)}
if [ "$RUN_ONLY" != 1 ]; then
    [ -x "$HPFC" ] || die "no hpfc at $HPFC (make first)"
    [ -r "$lib" ] || die "no $lib (make first)"
    [ -n "$FC_SEQ" ] || die "no gfortran: the sequential programs cannot be built"
fi
FFLAGS=${FFLAGS:--O2}
REPS=${REPS:-3}
MIN_TIME=${MIN_TIME:-0.3}
RATIO_TARGET=${RATIO_TARGET:-1.3}
SPEEDUP_TARGET=${SPEEDUP_TARGET:-1.6}
OUT=${OUT:-$top_builddir/bench/spmd-out}
mkdir -p "$OUT" || die "cannot create $OUT"
PROGS=${PROGS:-"lfk1:4096 lfk2:4096 lfk3:4096 lfk9:4096 lfk14:4096 lfk22:4096
    pbs1:4096 pbs2:256 pbs3:256 pbs4:4096 pi:4096 nbody:1024 finance:512
    laplace_bb:256 laplace_bs:256 laplace_sb:256
    power_bs:1024 redblack_c4:512 stencil3d:64 laplace_bb:512"}

wrap="-Wl,--wrap=hpfrt_init_ -Wl,--wrap=hpfrt_finalize_"
tobj="$OUT/hpfv_timer.o"
[ "$RUN_ONLY" = 1 ] || (cd "$OUT" && "$MPIFC" $FFLAGS -c -o hpfv_timer.o "$srcdir/validation/hpfv_timer.f90") \
    >"$OUT/hpfv_timer.log" 2>&1 || die "validation/hpfv_timer.f90 does not compile (see $OUT/hpfv_timer.log)"

# cpu CMD...: runs CMD (output to $o.out), sets cpu_s to the CPU seconds
# (user and system) it took, from the shell's `times` (run in this shell,
# not in a subshell, whose children would not be CMD); status 1 when it
# failed
cpu() {
    times >"$o.t0"
    "$@" >"$o.out" 2>"$o.err" </dev/null || return 1
    times >"$o.t1"
    cpu_s=$(echo "$(tail -1 "$o.t0") $(tail -1 "$o.t1")" | awk '
        function s(x,   m) { m = x; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", x); sub(/s$/, "", x); return 60 * m + x }
        { printf "%.6f\n", s($3) + s($4) - s($1) - s($2) }')
}
# field NAME FILE: a field of the hpfv line ("elapsed" or "cpu")
hpfv() { sed -n "s/^hpfv: .*$1 *\([-+0-9.eE]*\).*/\1/p" "$2" | tail -1; }
# least of the numbers on standard input
least() { sort -g | head -1; }

# build NAME FILE N "SETTINGS": $b.seq and $b.spmd, and the settings in
# $b.settings; fail says what went wrong (RUN_ONLY: the programs must be
# there already)
build() {
    fail=
    if [ "$RUN_ONLY" = 1 ]; then
        [ -x "$b.seq" ] && [ -x "$b.spmd" ] && [ -r "$b.settings" ] \
            || fail="RUN_ONLY: no $b.seq, $b.spmd or $b.settings from an earlier run"
        return
    fi
    echo "$4" >"$b.settings"
    set_params "$2" "n=$3 $4" >"$b.seq.f90"
    dflag="-D n=$3"
    for a in $4; do dflag="$dflag -D $a"; done
    if ! (cd "$OUT" && "$FC_SEQ" $FFLAGS -ffree-line-length-none -o "$b.seq" "$b.seq.f90") \
            >"$b.seq.log" 2>&1; then
        fail="gfortran: see $b.seq.log"
    elif ! "$HPFC" $dflag "$2" -o "$b.spmd.f90" >"$b.hpfc.log" 2>&1; then
        fail="hpfc: $(grep -m1 error "$b.hpfc.log")"
    elif ! (cd "$OUT" && "$MPIFC" $FFLAGS -o "$b.spmd" "$b.spmd.f90" "$tobj" "$lib" $wrap) \
            >"$b.build.log" 2>&1; then
        fail="mpif90: see $b.build.log"
    fi
}

table="$OUT/bench-spmd.txt"
{
    echo "# make bench-spmd, $(date -u '+%Y-%m-%d %H:%M UTC'), $(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -1) ($(nproc) cores), load $(cut -d' ' -f1 /proc/loadavg)"
    echo "# $FC_SEQ $FFLAGS and $MPIFC $FFLAGS; the fastest of $REPS runs; sequential runs of at least $MIN_TIME s"
    printf '%-12s %6s %-12s %9s %9s %6s %9s %9s %6s  %s\n' program n repeat seq_cpu spmd_cpu ratio t_np1 t_np2 speedup verdict
} >"$table"
cat "$table"
nmet=0 nmiss=0 nfail=0
for ps in $PROGS; do
    name=${ps%%:*} n=${ps#*:}
    [ "$name" = "$ps" ] && n=
    f=
    for d in "$srcdir/examples" "$srcdir/bench/spmd"; do
        [ -r "$d/$name.f90" ] && { f="$d/$name.f90"; break; }
    done
    b="$OUT/$name.n$n" o=$b
    if [ -z "$f" ] || [ -z "$n" ]; then
        if [ -z "$f" ]; then
            say "$ps: no program $name.f90 in examples/ or bench/spmd/"
        else
            say "$ps: no size: give it as $name:N"
        fi
        printf '%-12s %6s %-12s %s\n' "$name" "${n:--}" "-" "FAILED: no such program, or no size" >>"$table"
        nfail=$((nfail + 1)); continue
    fi
    extra=
    case "$name" in laplace_*) extra="tol=0.0d0" ;; esac   # every iteration runs
    set -- $(rep_param "$name" "$f")
    rname=${1:-} rval=${2:-}
    settings="$extra${rname:+ $rname=$rval}"
    build "$name" "$f" "$n" "$settings"
    if [ "$RUN_ONLY" = 1 ] && [ -z "$fail" ]; then
        # the count the building run chose
        for a in $(cat "$b.settings"); do
            [ "${a%%=*}" = "$rname" ] && rval=${a#*=}
        done
    fi
    # the repetition count raised until the sequential run is long enough
    round=0
    [ "$RUN_ONLY" = 1 ] && round=4
    while [ -z "$fail" ] && [ -n "$rname" ] && [ $round -lt 4 ]; do
        round=$((round + 1))
        cpu "$b.seq" || { fail="the sequential program fails (see $o.err)"; break; }
        t=$cpu_s
        k=$(awk -v t="$t" -v m="$MIN_TIME" 'BEGIN { if (t >= m) print 1; else { k = int(1.2 * m / (t > 1e-4 ? t : 1e-4)) + 1; print (k > 1000 ? 1000 : k) } }')
        [ "$k" -gt 1 ] || break
        rval=$((rval * k))
        settings="$extra $rname=$rval"
        build "$name" "$f" "$n" "$settings"
    done
    ts= tc= t1= t2=
    if [ -z "$fail" ]; then
        o="$b.seq"
        for r in $(seq "$REPS"); do
            cpu "$b.seq" || { fail="the sequential program fails (see $o.err)"; break; }
            ts="$ts $cpu_s"
        done
        cp "$b.seq.out" "$b.ref"
        for np in 1 2; do
            o="$b.np$np"
            for r in $(seq "$REPS"); do
                if ! $MPIRUN $MPIRUN_FLAGS -np $np "$b.spmd" >"$o.out" 2>"$o.err" </dev/null; then
                    fail="the SPMD program fails on $np process(es) (see $o.err)"; break 2
                fi
                same "$o.out" "$b.ref" || { fail="the SPMD program on $np process(es) prints other numbers than the sequential one"; break 2; }
                if [ $np = 1 ]; then
                    t1="$t1 $(hpfv elapsed "$o.err")"; tc="$tc $(hpfv cpu "$o.err")"
                else
                    t2="$t2 $(hpfv elapsed "$o.err")"
                fi
            done
        done
    fi
    if [ -n "$fail" ]; then
        say "$name n=$n: FAILED: $fail"
        printf '%-12s %6s %-12s %s\n' "$name" "$n" "-" "FAILED: $fail" >>"$table"
        nfail=$((nfail + 1)); continue
    fi
    ts=$(echo $ts | tr ' ' '\n' | least); tc=$(echo $tc | tr ' ' '\n' | least)
    t1=$(echo $t1 | tr ' ' '\n' | least); t2=$(echo $t2 | tr ' ' '\n' | least)
    line=$(awk -v nm="$name" -v n="$n" -v rp="${rname:+$rname=$rval}" -v ts="$ts" -v tc="$tc" \
            -v t1="$t1" -v t2="$t2" -v rt="$RATIO_TARGET" -v st="$SPEEDUP_TARGET" 'BEGIN {
        ratio = tc / ts; sp = t1 / t2
        v = (ratio <= rt ? "cpu ok" : "cpu MISSED") ", " (sp >= st ? "speed-up ok" : "speed-up MISSED")
        printf "%-12s %6s %-12s %9.4f %9.4f %6.2f %9.4f %9.4f %6.2f  %s\n", nm, n, rp == "" ? "-" : rp, ts, tc, ratio, t1, t2, sp, v }')
    echo "$line" >>"$table"
    echo "$line"
    case "$line" in *MISSED*) nmiss=$((nmiss + 1)) ;; *) nmet=$((nmet + 1)) ;; esac
done
echo "# $nmet programs meet both targets (CPU on 1 process <= ${RATIO_TARGET}x the sequential program's, speed-up on 2 >= $SPEEDUP_TARGET), $nmiss miss one, $nfail failed" | tee -a "$table"
say "table: $table"
