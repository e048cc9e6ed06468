#!/bin/sh
# predict.sh - the speed of hpfpredict (make bench). Whole-process wall
# time, the best of 5 runs, of:
#  1. every example at its largest suite size at -np 8 (target: 20 ms each);
#  2. Laplace (BLOCK,BLOCK), n = 256, at -np 4 ... 262144 (target: growth no
#     worse than logarithmic, at most 1 s at 262144);
#  3. a deterministic loop's trip count multiplied by 1000 (target: the
#     same time: IterD and steady IterSync loops are not unrolled);
#  4. the problem size: the rank-1 matrix product (bench/matmul_rank1.f90)
#     at n = 100 ... 4000, the examples at n = 64 and 4096 (target: the
#     same time);
#  5. the functional interpreter's speed on whole-array statements
#     (bench/converge.f90; target: 10^8 element operations a second).
#  6. forecasts from the resource usage equations;
#  7. the report page (--html) of a 2,000-line program at 4096 processors
#     (target: under 5 MB, opened in headless Chromium in under a second).
# Prints a table; the figures go to doc/predict-bench.md.
: "${top_builddir:=.}"
: "${srcdir:=.}"
P="$top_builddir/hpfpredict"
[ -x "$P" ] || { echo "predict.sh: build hpfpredict first" >&2; exit 1; }
best() {   # best CMD...: the best wall time of 5 runs, in ms
    b=
    for i in 1 2 3 4 5; do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || { echo "FAILED"; return; }
        e=$(date +%s%N)
        t=$(( (e - s) / 1000 ))
        if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
    done
    awk -v t="$b" 'BEGIN { printf "%.1f", t / 1000 }'
}
size_of() {
    case "$1" in
        pbs2|pbs3) echo 256 ;; finance) echo 512 ;; laplace_*|seismic) echo 256 ;; *) echo 4096 ;;
    esac
}
echo "1. every example at its largest suite size, -np 8 (ms; target <= 20)"
printf '   %-12s %6s %9s\n' program n ms
for f in "$srcdir"/examples/*.f90; do
    name=$(basename "$f" .f90)
    n=$(size_of "$name")
    extra=
    case "$name" in laplace_*) extra="-D err=1" ;; esac
    # shellcheck disable=SC2086
    printf '   %-12s %6s %9s\n' "$name" "$n" "$(best "$P" "$f" -np 8 -D n="$n" $extra)"
done
echo
echo "2. laplace_bb, n = 256, -D err=1 (ms; target <= 1000 at 262144)"
for np in 4 64 1024 16384 262144; do
    printf '   -np %-8s %9s\n' "$np" "$(best "$P" "$srcdir/examples/laplace_bb.f90" -np "$np" -D n=256 -D err=1)"
done
echo
echo "3. trip counts (ms): the same program with a deterministic loop 1000 times longer"
printf '   %-34s %9s %9s\n' program x1 x1000
printf '   %-34s %9s %9s\n' "lfk1 (nrep = 10 / 10000), -np 8" \
    "$(best "$P" "$srcdir/examples/lfk1.f90" -np 8 -D nrep=10)" \
    "$(best "$P" "$srcdir/examples/lfk1.f90" -np 8 -D nrep=10000)"
printf '   %-34s %9s %9s\n' "laplace_bb (maxit = 100 / 100000)" \
    "$(best "$P" "$srcdir/examples/laplace_bb.f90" -np 8 -D err=1 -D maxit=100)" \
    "$(best "$P" "$srcdir/examples/laplace_bb.f90" -np 8 -D err=1 -D maxit=100000)"
echo
echo "4. problem size (ms; target: the same time at every n, under 20 ms)"
printf '   %-34s %9s %9s %9s %9s\n' program n=100 n=400 n=1400 n=4000
printf '   %-34s' "matmul_rank1 (bench/), -np 4"
for n in 100 400 1400 4000; do
    printf ' %9s' "$(best "$P" "$srcdir/bench/matmul_rank1.f90" -np 4 -D n=$n)"
done
echo
printf '   %-34s' "cshift_step (bench/), -np 4"
for n in 1000 10000 100000 1000000; do
    printf ' %9s' "$(best "$P" "$srcdir/bench/cshift_step.f90" -np 4 -D n=$n)"
done
echo "   (n = 10^3 ... 10^6)"
printf '   %-12s %9s %9s\n' example "n=64" "n=4096"
for f in "$srcdir"/examples/*.f90; do
    name=$(basename "$f" .f90)
    case "$name" in pbs2|pbs3|finance|laplace_*|seismic) continue ;; esac
    printf '   %-12s %9s %9s\n' "$name" "$(best "$P" "$f" -np 8 -D n=64)" \
        "$(best "$P" "$f" -np 8 -D n=4096)"
done
echo
echo "5. the functional interpreter's whole-array statements (target: 100 million"
echo "   element operations a second or more): bench/converge.f90, n = 10^6, its"
echo "   convergence loop of 50 iterations interpreted"
ms=$(best "$P" "$srcdir/bench/converge.f90" -np 4)
steps=$("$P" "$srcdir/bench/converge.f90" -np 4 --format=json 2>/dev/null \
        | sed -n 's/.*"interpreter_steps": \([0-9]*\).*/\1/p')
awk -v ms="$ms" -v s="$steps" 'BEGIN {
    printf "   %s element operations in %s ms: %.0f million a second\n", s, ms, s / (ms * 1000) }'
echo
echo "6. forecasts from the resource usage equations (target: under 10 ms a point,"
echo "   at 2^20 processors and n = 10^9): laplace_bs, derived once, then 256"
echo "   processor counts x 16 sizes up to 10^9 evaluated"
nps=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "%s%d", i ? "," : "", 4096 * (i + 1); }')
ns=$(awk 'BEGIN { for (i = 0; i < 16; i++) printf "%s%d", i ? "," : "", 1000000000 - i * 1000; }')
one=$(best "$P" "$srcdir/examples/laplace_bs.f90" --forecast -np 1048576 -D n=1000000000)
all=$(best "$P" "$srcdir/examples/laplace_bs.f90" --forecast -np "$nps" -D n="$ns")
awk -v a="$one" -v b="$all" 'BEGIN {
    d = (b - a) / 4095
    printf "   one point (derivation included): %s ms; 4096 points: %s ms: %s\n", a, b,
           d > 0.001 ? sprintf("%.3f ms a point", d) :
           "under 0.001 ms a point (the difference within the derivation'"'"'s run-to-run noise)" }'
echo
echo "7. the report page (--html) of a program of about 2,000 lines"
echo "   (bench/long_program.awk) at -np 4096 (target: under 5 MB, and open in"
echo "   under a second in headless Chromium: from the navigation to the page's"
echo "   script done, the best of 3)"
tmp=$(mktemp -d)
awk -f "$srcdir/bench/long_program.awk" >"$tmp/long.f90"
ms=$(best "$P" "$tmp/long.f90" -np 4096 --html "$tmp/long.html")
"$P" "$tmp/long.f90" -np 4096 --html "$tmp/long.html" --format=json >"$tmp/long.json" 2>/dev/null
bytes=$(wc -c <"$tmp/long.html")
printf '   %s lines, the prediction and page in %s ms: %s bytes (%.2f MB)\n' \
    "$(wc -l <"$tmp/long.f90")" "$ms" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
PYWS=
for py in /usr/bin/python3 python3; do
    if "$py" -c 'import websocket' 2>/dev/null; then PYWS=$py; break; fi
done
if [ -n "$CHROMIUM" ] && [ -n "$PYWS" ]; then
    load=
    for i in 1 2 3; do
        l=$("$PYWS" "$srcdir/testsuite/html_check.py" "$CHROMIUM" "$tmp/long.html" "$tmp/long.json" \
               "$tmp/long.png" --load-only | sed -n 's/^load_ms //p')
        if [ -n "$l" ] && { [ -z "$load" ] || [ "$l" -lt "$load" ]; }; then load=$l; fi
    done
    echo "   opened in headless Chromium in ${load:-FAILED} ms"
else
    echo "   not opened: Debian's chromium and python3-websocket are needed"
fi
rm -rf "$tmp"
echo
echo "8. the mapping search (--compare; target: a program with three array"
echo "   groups searched in under a second at 1,024 processors)"
for c in "directives/collapsed.f90 -np 1024" "directives/collapsed.f90 -np 1024 -D n=256 -D k=32" \
         "directives/collapsed.f90 -np 1024 -D n=1024 -D k=64" \
         "laplace_bb.f90 -np 1024 -D n=1024 -D err=1" "laplace_bb.f90 -np 4 -D n=64 -D err=1" \
         "laplace_bs.f90 -np 4"; do
    # shellcheck disable=SC2086
    ms=$(best "$P" "$srcdir/examples/"$c --compare)
    # shellcheck disable=SC2086
    "$P" "$srcdir/examples/"$c --compare --format=json 2>/dev/null |
        sed -n 's/.*"candidates": \([0-9.e+]*\), "search": "\([a-z ,]*\)", "passes": \([0-9]*\), "predicted": \([0-9]*\), "slower": [0-9]*, "cut_off": \([0-9]*\), "skipped": \([0-9]*\).*/\1;\2;\3;\4;\5;\6/p' |
        { IFS=';' read -r cand how passes pred cut skip
          printf '   %s: %s ms; %s mappings, searched %s (passes: %s), %s predicted in full, %s ended at the bound, %s skipped\n' \
              "$c" "$ms" "$cand" "$how" "$passes" "$pred" "$cut" "$skip"; }
done
