#!/bin/sh
# validate.sh - measured against predicted time for the validation suite
# (`make validate`; doc/validation.md). For every program, problem size and
# processor count it compiles the program with hpfc and mpif90, runs it REPS
# times under mpirun, takes the median and the range of the program's own
# elapsed time, checks its checksum against the sequential gfortran program,
# asks hpfpredict for the predicted time on a SAG, and reports the errors in
# the form of the paper's Table 4, with one SVG plot per program and the
# ranking of the three Laplace mappings.
#
# Variables (environment, or `make validate VAR=...`):
#   SAG        the machine for hpfpredict (default: validation/machine.sag,
#              calibrated with hpfcalibrate when it is not there yet; without
#              hpfcalibrate, examples/ipsc860.sag with a warning)
#   REPS       runs per point (default 5; 3 with QUICK=1)
#   MIN_TIME   the shortest run to time, in seconds (default 0.05): a point
#              whose run is shorter has its program's repetition PARAMETER
#              (nrep, nsteps, maxit) raised until a run lasts that long
#   WARMUP     runs before them, not counted (default 1; 0 with QUICK=1)
#   NP_LIST    processor counts (default 1 2, then 4 and 8 where nproc allows)
#   QUICK=1    one small size per program;  FULL=1  more sizes per program
#   SIZES      sizes for every program; SIZES_<name> (e.g. SIZES_pi) for one
#   PROGRAMS   names in examples/ (without .f90) or paths of .f90 files
#   OUT        output folder (default validation/out)
#   MPIFFLAGS  mpif90 flags of the SPMD programs (default -O2)
#   REF_FFLAGS gfortran flags of the sequential reference (default -O1)
#   RUN_TIMEOUT  seconds allowed to one run (default 300)
#   RECALIBRATE=1  run hpfcalibrate again even if validation/machine.sag exists
#   CALIBRATE_FLAGS  more options of hpfcalibrate (e.g. --quick)
#   DRIFT_CHECK=0  skip hpfcalibrate --check of the SAG after the points (the
#              drift of the machine while it was measured: drift.txt, run.info)
#   REPORT_ONLY=1  measure nothing: remake the reports from OUT/points.csv
#   FORECAST=1  also verify the resource usage equations, as Armstrong and
#              Eigenmann did: each point run once more with a profile
#              (HPFRT_PROFILE), the constants fitted to the smallest size's
#              runs on the two smallest processor counts (hpfpredict --fit),
#              every point forecast from them (--forecast) and compared per
#              component, and per profiled line (the papers' bars per loop):
#              forecast.txt, forecast.csv, forecast.svg, forecast_loops.csv,
#              forecast_loops.svg
#   PROBE=1    also verify the software probes (doc/probes.md): each point's
#              phases found (hpfpredict --save-phases), its SPMD program run
#              PROBE_REPS times (default 3) under HPFRT_PROBE, the run's time
#              predicted from each probe (--probe-predict) and compared with
#              the measured median, with the probe's own time as a share of
#              it: probe.csv, probe.txt (use MIN_TIME=1 for runs of a second)
# Exit status: 0 when the harness ran (failed programs are reported in the
# table), 2 when it cannot work (no MPI, no hpfc, no SAG, OUT not writable).
: "${srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=.}"
top_builddir=$(cd "$top_builddir" && pwd) || { echo "validate: error: no build folder" >&2; exit 2; }
srcdir=$(cd "$srcdir" && pwd) || { echo "validate: error: no source folder" >&2; exit 2; }
HPFC=${HPFC:-$top_builddir/hpfc}
HPFPREDICT=${HPFPREDICT:-$top_builddir/hpfpredict}
vdir="$srcdir/validation"
OUT=${OUT:-$top_builddir/validation/out}
MPIFFLAGS=${MPIFFLAGS:--O2}
REF_FFLAGS=${REF_FFLAGS:--O1}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
QUICK=${QUICK:-0}
FULL=${FULL:-0}
SAG=${SAG:-}
RTOL=${RTOL:-1e-10}

say()  { echo "validate: $*" >&2; }
# rep_param, set_params, same
. "$srcdir/validation/common.sh"
die()  { echo "validate: error: $*" >&2; exit 2; }
# the first line of a log that says what went wrong
why() { grep -v -e collect2 "$1" | grep -m1 -i -e 'error' -e 'undefined' -e 'fatal' || head -1 "$1"; }
# a field of the CSV: no commas, no line breaks
field() { printf '%s' "$*" | tr ',\n\r' ';  ' | cut -c1-160; }

if [ "$QUICK" = 1 ]; then mode=quick; REPS=${REPS:-3}; WARMUP=${WARMUP:-0}
elif [ "$FULL" = 1 ]; then mode=full
else mode=default
fi
REPS=${REPS:-5}
MIN_TIME=${MIN_TIME:-0.05}
case "$MIN_TIME" in ''|*[!0-9.]*) die "MIN_TIME must be a time in seconds (got '$MIN_TIME')" ;; esac
WARMUP=${WARMUP:-1}
case "$REPS" in ''|*[!0-9]*|0) die "REPS must be a positive integer (got '$REPS')" ;; esac
case "$WARMUP" in ''|*[!0-9]*) die "WARMUP must be a number of runs (got '$WARMUP')" ;; esac

mkdir -p "$OUT/build" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
csv="$OUT/points.csv"
header="program,size,np,reps,measured_median_s,measured_min_s,measured_max_s,spread_pct,predicted_s,error_pct,checksum_ok,in_spread,timer,status,error_fastest_pct,load1,repeat"

# ---- the reports (from points.csv alone) ----------------------------------
report() {
    [ -s "$csv" ] || die "no $csv to report on"
    sag_name=$(sed -n 's/^sag=//p' "$OUT/run.info" 2>/dev/null)
    say "writing the table, the plots, the Laplace ranking and $OUT/summary.md"
    awk -F, -f "$vdir/table.awk" -v form=text -v min_time="$MIN_TIME" "$csv" >"$OUT/table.txt" \
        || die "table.awk failed"
    awk -F, -f "$vdir/rank.awk" -v form=text "$csv" >"$OUT/ranking.txt" \
        || die "rank.awk failed"
    for p in $(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$csv"); do
        awk -F, -f "$vdir/svg.awk" -v prog="$p" -v sag="$sag_name" "$csv" \
            >"$OUT/$p.svg" || say "warning: the plot of $p failed"
    done
    {
        echo "## Results"
        echo
        echo "Generated by \`make validate\` (validation/validate.sh) on $(sed -n 's/^date=//p' "$OUT/run.info")."
        echo
        echo "| | |"
        echo "|---|---|"
        sed -n 's/^\([a-z0-9_]*\)=\(.*\)$/| \1 | \2 |/p' "$OUT/run.info" | sed 's/`/'"'"'/g'
        echo
        awk -F, -f "$vdir/table.awk" -v form=md -v min_time="$MIN_TIME" "$csv"
        echo
        echo "Ranking of the three Laplace mappings (fastest first):"
        echo
        awk -F, -f "$vdir/rank.awk" -v form=md "$csv"
        echo
        echo "Every point: \`points.csv\`; plots of estimated against measured time: \`NAME.svg\`."
        if [ -s "$OUT/drift.txt" ]; then
            echo
            echo "The SAG's key parameters measured again at the end of the run (\`hpfcalibrate --check\`):"
            echo
            echo '```'
            cat "$OUT/drift.txt"
            echo '```'
        fi
    } >"$OUT/summary.md"
    echo "Predicted on: $sag_name"
    echo "Measured: $(sed -n 's/^timer=//p' "$OUT/run.info"); $(sed -n 's/^reps=//p' "$OUT/run.info")"
    echo
    cat "$OUT/table.txt"
    echo
    cat "$OUT/ranking.txt"
    echo
    echo "Points: $csv; plots: $OUT/NAME.svg; summary: $OUT/summary.md"
    case "$sag_name" in
        *fallback*) say "WARNING: predicted for the iPSC/860 (fallback SAG): the errors are MEANINGLESS" ;;
    esac
}

# ---- FORECAST=1: the resource usage equations fitted and verified ----------
# sum_col FILE COL: the sum of a column of a profile's rows
sum_col() { grep -v '^#' "$1" | awk -F, -v c="$2" 'NR > 1 { s += $c } END { printf "%.9g", s }'; }
forecast_stage() {
    fcsv="$OUT/forecast.csv"
    echo "program,size,np,fitted,measured_s,forecast_s,error_pct,measured_comp_s,forecast_comp_s,comp_error_pct,measured_comm_s,forecast_comm_s,comm_error_pct" >"$fcsv"
    lcsv="$OUT/forecast_loops.csv"
    echo "program,size,np,fitted,line,measured_comp_s,forecast_comp_s,measured_comm_s,forecast_comm_s" >"$lcsv"
    for p in $PROGRAMS; do
        case "$p" in */*|*.f90) f=$p ;; *) f="$srcdir/examples/$p.f90" ;; esac
        name=$(basename "$f" .f90)
        extra=$(predict_flags "$name")
        small=$(sizes_of "$name" | tr ' ' '\n' | sort -n | head -1)
        fitnp=$(echo "$NP_LIST" | tr ' ' '\n' | sort -n | head -2 | tr '\n' ' ')
        fits=
        for np in $fitnp; do
            pf="$OUT/build/$name.n$small.np$np.prof.csv"
            [ -s "$pf" ] && fits="$fits --fit $pf"
        done
        if [ -z "$fits" ]; then
            say "forecast: $name: no profile of n=$small to fit"
            continue
        fi
        awk -F, -v p="$name" '$1 == p && $14 == "ok" { print $2, $3, $5, $17 }' "$csv" |
        while read -r size np measured repeat; do
            pf="$OUT/build/$name.n$size.np$np.prof.csv"
            [ -s "$pf" ] || continue
            rflag=
            for a in $repeat; do case "$a" in *=*) rflag="$rflag -D $a" ;; esac; done
            fitted=no
            [ "$size" = "$small" ] && case " $fitnp " in *" $np "*) fitted=yes ;; esac
            js="$OUT/build/$name.n$size.np$np.forecast.json"
            # shellcheck disable=SC2086
            if ! "$HPFPREDICT" -sag "$SAG" "$f" --forecast $fits -np "$np" -D "n=$size" $rflag \
                    $extra --format=json >"$js" 2>"$js.log"; then
                say "forecast: $name n=$size np=$np: $(grep -m1 error "$js.log")"
                continue
            fi
            # the point's total, computation and communication (its phases cut off)
            fc=$(tr -d '\n' <"$js" | sed 's/"phases".*//' |
                 sed 's/.*"total": *\([-+0-9.eE]*\), "computation": *\([-+0-9.eE]*\), "communication": *\([-+0-9.eE]*\).*/\1 \2 \3/')
            set -- $fc
            # measured: the communication the profile's regions spent (the
            # slowest process's, line by line), the computation the rest of
            # the point's median time (statements outside regions included)
            mm=$(sum_col "$pf" 5)
            mc=$(awk -v t="$measured" -v m="$mm" 'BEGIN { printf "%.9g", (t > m ? t - m : 0) }')
            # loop by loop (the papers' bars): each profiled line's measured
            # computation and communication against its terms' forecast
            jr="$OUT/build/$name.n$size.np$np.rue.json"
            # shellcheck disable=SC2086
            if "$HPFPREDICT" -sag "$SAG" "$f" --rue $fits -np "$np" -D "n=$size" $rflag $extra \
                    --format=json >"$jr" 2>"$jr.log"; then
                awk -v p="$name" -v n="$size" -v np="$np" -v fit="$fitted" -v prof="$pf" '
                    BEGIN {
                        while ((getline l < prof) > 0) {
                            if (l ~ /^#/ || l ~ /^line/) continue
                            split(l, c, ",")
                            seen[c[1]] = 1; mc[c[1]] = c[7]; mm[c[1]] = c[5]
                        }
                    }
                    /"kind": "/ && /"seconds": / {
                        match($0, /"kind": "[a-z]*"/); k = substr($0, RSTART + 9, RLENGTH - 10)
                        match($0, /"line": [0-9]*/); ln = substr($0, RSTART + 8, RLENGTH - 8)
                        match($0, /"seconds": [-+0-9.eE]*/); v = substr($0, RSTART + 11, RLENGTH - 11)
                        if (k == "computation") fc[ln] += v
                        else if (k == "communication") fm[ln] += v
                    }
                    END {
                        for (ln in seen)
                            printf "%s,%s,%s,%s,%s,%.9g,%.9g,%.9g,%.9g\n", p, n, np, fit, ln,
                                   mc[ln], fc[ln] + 0, mm[ln], fm[ln] + 0
                    }' "$jr" | sort -t, -k5,5n >>"$lcsv"
            fi
            awk -v p="$name" -v n="$size" -v np="$np" -v fit="$fitted" -v mt="$measured" \
                -v ft="$1" -v mc="$mc" -v fcp="$2" -v mm="$mm" -v fm="$3" 'function e(f, m) {
                    return m > 0 ? sprintf("%.2f", 100 * (f - m) / m) : "" }
                BEGIN { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p, n, np, fit, mt, ft,
                        e(ft, mt), mc, fcp, e(fcp, mc), mm, fm, e(fm, mm) }' >>"$fcsv"
        done
    done
    awk -F, -f "$vdir/forecast.awk" -v form=text "$fcsv" >"$OUT/forecast.txt" ||
        say "warning: forecast.awk failed"
    awk -F, -f "$vdir/forecast.awk" -v form=svg "$fcsv" >"$OUT/forecast.svg" ||
        say "warning: the forecast plot failed"
    awk -F, -f "$vdir/forecast.awk" -v form=loops "$lcsv" >>"$OUT/forecast.txt" ||
        say "warning: the loops' table failed"
    awk -F, -f "$vdir/forecast.awk" -v form=loopsvg "$lcsv" >"$OUT/forecast_loops.svg" ||
        say "warning: the loops' plot failed"
    cat "$OUT/forecast.txt"
}

# ---- PROBE=1: the software probes against the measured runs ---------------
# For the point of the loop below (f, name, size, np, b, rflag, extra):
# probe_plan finds its phases before the measured runs; probe_once R runs
# probe R and predicts from it, right after measured run R (the probe and
# the runs it is compared with see the machine alike: its speed drifts by
# some percent over seconds); probe_point, after the runs: the synthetic
# probe, and the medians into probe.csv.
probe_plan() {
    probe_ok=no
    ph="$b.np$np.phases.json"
    : >"$b.np$np.probe.runs"
    # shellcheck disable=SC2086
    if ! "$HPFPREDICT" -sag "$SAG" "$f" -np "$np" -D "n=$size" $rflag $extra \
            --save-phases "$ph" 2>"$ph.log"; then
        say "$tag: probe: $(grep -m1 error "$ph.log")"
        return
    fi
    probe_ok=yes
}

probe_once() {
    [ "$probe_ok" = yes ] || return 0
    pc="$b.np$np.probe$1.csv"
    rm -f "$pc"
    # shellcheck disable=SC2086
    if ! HPFRT_PROBE="$ph" HPFRT_PROBE_OUT="$pc" timeout "$RUN_TIMEOUT" $MPIRUN \
            $MPIRUN_FLAGS -np "$np" "$b.spmd" >/dev/null 2>"$pc.err" </dev/null ||
       ! "$HPFPREDICT" "$f" -D "n=$size" $rflag $extra --probe-predict "$pc" --format=json \
            >"$pc.json" 2>"$pc.log"; then
        say "$tag: probe run $1 failed: $(why "$pc.err") $(grep -m1 error "$pc.log")"
        probe_ok=no
        return 0
    fi
    echo "$(sed -n 's/^# elapsed=//p' "$pc") $(sed -n 's/.*"total": *\([-+0-9.eE]*\).*/\1/p' "$pc.json")" \
        >>"$b.np$np.probe.runs"
}

probe_point() {
    pcsv="$OUT/probe.csv"
    [ -s "$pcsv" ] || echo "program,size,np,measured_s,probe_s,cost_pct,predicted_s,error_pct,phases,probed,planned_cost_pct,synth_s,synth_predicted_s,synth_error_pct,interval_diff_pct" >"$pcsv"
    # the probe runs the measured runs did not reach
    r=$REPS
    while [ $r -lt "${PROBE_REPS:-3}" ]; do
        r=$((r + 1))
        probe_once $r
    done
    [ "$probe_ok" = yes ] || return 0
    # the synthetic probe (hpfc --probe): its prediction, and its time per
    # interval against the real probe's (its runs' median), weighted by phase
    sy="$b.np$np.synth"
    synth=",,,"
    # shellcheck disable=SC2086
    if "$HPFC" --probe "$ph" -D "n=$size" $rflag "$f" -o "$sy.f90" 2>"$sy.log" &&
       (cd "$OUT/build" && "$MPIFC" $MPIFFLAGS -o "$sy" "$sy.f90" "$lib") >>"$sy.log" 2>&1 &&
       HPFRT_PROBE_OUT="$sy.csv" timeout "$RUN_TIMEOUT" $MPIRUN $MPIRUN_FLAGS -np "$np" "$sy" \
           >/dev/null 2>>"$sy.log" </dev/null &&
       "$HPFPREDICT" "$f" -D "n=$size" $rflag $extra --probe-predict "$sy.csv" --format=json \
           >"$sy.json" 2>>"$sy.log"; then
        st=$(sed -n 's/.*"total": *\([-+0-9.eE]*\).*/\1/p' "$sy.json")
        # (per operation: the real probe times a span of intervals; the
        # median of the real probe's runs, phase by phase)
        # shellcheck disable=SC2046
        diff=$(awk -F, 'FNR == 1 { f++ } /^[0-9]/ { if (f == 1) { if ($4 > 0) { s[$1] = $4 / $5; w[$1] = $6 } }
                                                   else if ($4 > 0) r[$1, ++nr[$1]] = $4 / $5 }
                END { for (p in s) if (nr[p] > 0) {
                          n = nr[p]
                          for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                              if (r[p, j] < r[p, i]) { x = r[p, i]; r[p, i] = r[p, j]; r[p, j] = x }
                          m = n % 2 ? r[p, (n + 1) / 2] : (r[p, n / 2] + r[p, n / 2 + 1]) / 2
                          d = s[p] / m - 1; sw += w[p]; sd += w[p] * (d < 0 ? -d : d) }
                      if (sw > 0) printf "%.2f", 100 * sd / sw }' "$sy.csv" \
                  $(r=0; while [ $r -lt "${PROBE_REPS:-3}" ]; do r=$((r + 1)); echo "$b.np$np.probe$r.csv"; done))
        synth="$(sed -n 's/^# elapsed=//p' "$sy.csv"),$st,,$diff"
    else
        say "$tag: the synthetic probe failed: $(why "$sy.log")"
    fi
    med=$(sort -g "$b.np$np.times" | awk '{ t[NR] = $1 } END { n = NR
          print n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2 }')
    k=$(tr -d '\n' <"$ph" | sed 's/.*"k": *\([0-9]*\).*/\1/')
    probed=$(grep -o '"probed": true' "$ph" | wc -l)
    plan=$(tr -d '\n' <"$ph" | sed 's/.*"cost": *\([-+0-9.eE]*\).*/\1/')
    awk -v p="$name" -v n="$size" -v np="$np" -v m="$med" -v k="$k" -v pr="$probed" \
        -v plan="$plan" -v synth="$synth" '{ c[NR] = $1; t[NR] = $2 }
        END {
            N = NR
            # medians of the probe runs: their time and their prediction
            for (i = 1; i <= N; i++) for (j = i + 1; j <= N; j++) {
                if (c[j] < c[i]) { x = c[i]; c[i] = c[j]; c[j] = x }
                if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
            }
            cm = N % 2 ? c[(N + 1) / 2] : (c[N / 2] + c[N / 2 + 1]) / 2
            tm = N % 2 ? t[(N + 1) / 2] : (t[N / 2] + t[N / 2 + 1]) / 2
            split(synth, y, ",")
            se = y[2] != "" ? sprintf("%.2f", 100 * (y[2] - m) / m) : ""
            printf "%s,%s,%s,%.9g,%.9g,%.2f,%.9g,%.2f,%s,%s,%.2f,%s,%s,%s,%s\n", p, n, np, m, cm,
                   100 * cm / m, tm, 100 * (tm - m) / m, k, pr, 100 * plan, y[1], y[2], se, y[4]
        }' "$b.np$np.probe.runs" >>"$pcsv"
    say "$tag: probe: $(tail -1 "$pcsv" | awk -F, '{ printf "predicted %s s (error %s%%) from a probe of %s s (%s%% of the run)", $7, $8, $5, $6 }')"
}

probe_report() {
    pcsv="$OUT/probe.csv"
    [ -s "$pcsv" ] || return
    awk -F, 'NR == 1 { next }
        { n++; e = $8 < 0 ? -$8 : $8; se += e; if (e > me) me = e; if ($6 > mc) mc = $6
          w5 += e <= 5; c10 += $6 <= 10
          printf "%-12s n=%-6s np=%-3s measured %9.4f s  predicted %9.4f s  error %7.2f%%  probe %7.4f s (%5.2f%%)  phases %s (%s probed)\n",
                 $1, $2, $3, $4, $7, $8, $5, $6, $9, $10
          if ($13 != "") {
              printf "%-12s %-19s synthetic probe: predicted %9.4f s  error %7.2f%%  its run %7.4f s; time per interval %s%% from the real probe'"'"'s\n",
                     "", "", $13, $14, $12, $15
              ns++; x = $14 < 0 ? -$14 : $14; sse += x; sd += $15; s10 += $15 <= 10 }
        }
        END { if (n) printf "\n%d points: mean |error| %.2f%%, largest %.2f%%, %d within 5%%; probe cost at most %.2f%% of the run, %d under 10%%\n",
                            n, se / n, me, w5, mc, c10
              if (ns) printf "synthetic probe, %d points: mean |error| %.2f%%; time per interval %.2f%% from the real probe'"'"'s on average, within 10%% at %d\n",
                             ns, sse / ns, sd / ns, s10 }' "$pcsv" >"$OUT/probe.txt"
    cat "$OUT/probe.txt"
}

if [ "${REPORT_ONLY:-0}" = 1 ]; then
    report
    probe_report
    exit 0
fi

# ---- what the harness needs -------------------------------------------------
HAVE_MPI=no
env="$top_builddir/runtime/mpi.env"
[ -r "$env" ] && . "$env"
[ "$HAVE_MPI" = yes ] || die "MPI was not found by configure ($env): nothing can be measured"
lib="$top_builddir/runtime/libhpfrt.a"
[ -r "$lib" ] || die "$lib is missing: run make first"
[ -x "$HPFC" ] || die "$HPFC is missing: run make first"
[ -x "$HPFPREDICT" ] || die "$HPFPREDICT is missing: run make first"
FC_REF=${FC_REF:-$(command -v gfortran 2>/dev/null)}
[ -n "$FC_REF" ] || say "warning: no gfortran (FC_REF): checksums are not checked"

if [ -z "${NP_LIST:-}" ]; then
    cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
    NP_LIST="1 2"
    [ "$cores" -ge 4 ] && NP_LIST="$NP_LIST 4"
    [ "$cores" -ge 8 ] && NP_LIST="$NP_LIST 8"
fi
NP_LIST=$(echo "$NP_LIST" | tr ',' ' ')

# the clock: hpfv_timer.f90 wraps hpfrt_init/hpfrt_finalize at link time
timer=hpfv
wrap="-Wl,--wrap=hpfrt_init_ -Wl,--wrap=hpfrt_finalize_"
tobj="$OUT/build/hpfv_timer.o"
if ! (cd "$OUT/build" && "$MPIFC" $MPIFFLAGS -c -o hpfv_timer.o "$vdir/hpfv_timer.f90") \
        >"$OUT/build/hpfv_timer.log" 2>&1; then
    timer=wall; wrap=; tobj=
    say "WARNING: validation/hpfv_timer.f90 does not compile (see $OUT/build/hpfv_timer.log);"
    say "WARNING: timing the whole mpirun command instead (MPI start-up included)"
fi
timer_ok=
[ $timer = hpfv ] && timer_ok=yes

# the SAG
sag_note=
cal=${HPFCALIBRATE:-}
if [ -z "$cal" ]; then
    for c in "$top_builddir/hpfcalibrate" "$top_builddir/runtime/hpfcalibrate"; do
        [ -x "$c" ] && { cal=$c; break; }
    done
fi
if [ -n "$SAG" ]; then
    [ -r "$SAG" ] || die "SAG=$SAG cannot be read"
else
    mkdir -p "$top_builddir/validation" || die "cannot create $top_builddir/validation"
    machine="$top_builddir/validation/machine.sag"
    if [ -s "$machine" ] && [ "${RECALIBRATE:-0}" != 1 ]; then
        SAG=$machine
        say "SAG: $machine (calibrated earlier; RECALIBRATE=1 calibrates again)"
    elif [ -n "$cal" ]; then
        say "calibrating this machine: $MPIRUN -np 2 $cal ${CALIBRATE_FLAGS:+$CALIBRATE_FLAGS }-o $machine"
        if $MPIRUN $MPIRUN_FLAGS -np 2 "$cal" ${CALIBRATE_FLAGS:-} -o "$machine" >"$OUT/calibrate.log" 2>&1 \
                && [ -s "$machine" ]; then
            SAG=$machine
        else
            say "WARNING: hpfcalibrate failed (see $OUT/calibrate.log)"
        fi
    fi
    if [ -z "$SAG" ]; then
        SAG="$srcdir/examples/ipsc860.sag"
        sag_note="iPSC/860 fallback: the errors say nothing about this machine"
        say "*****************************************************************"
        say "WARNING: no calibrated SAG of this machine (no hpfcalibrate, no"
        say "WARNING: validation/machine.sag): predicting for the iPSC/860 of"
        say "WARNING: $SAG instead. The errors below are MEANINGLESS."
        say "*****************************************************************"
    fi
fi
case "$(basename "$SAG")" in
    ipsc860.sag) [ -n "$sag_note" ] || sag_note="the iPSC/860, not this machine: the errors are not a validation"
                 say "note: SAG $SAG describes the iPSC/860, not this machine" ;;
esac

# ---- the programs and their sizes -------------------------------------------
PROGRAMS=${PROGRAMS:-"lfk1 lfk2 lfk3 lfk9 lfk14 lfk22 pbs1 pbs2 pbs3 pbs4 pi nbody finance laplace_bb laplace_bs laplace_sb"}

# default_sizes NAME: the sizes of the suite's range (shared/validation/suite.md)
default_sizes() {
    case "$1" in
        pbs2|pbs3)   # n*n elements: 256 .. 65536
            case $mode in quick) echo 32 ;; full) echo 16 32 64 128 256 ;; *) echo 16 64 128 256 ;; esac ;;
        nbody)
            case $mode in quick) echo 64 ;; full) echo 16 32 64 128 256 512 1024 2048 4096 ;; *) echo 16 64 256 1024 ;; esac ;;
        finance)
            case $mode in quick) echo 64 ;; full) echo 32 64 128 256 512 ;; *) echo 32 128 256 512 ;; esac ;;
        laplace_*)
            case $mode in quick) echo 32 ;; full) echo 16 32 64 128 256 ;; *) echo 16 64 128 256 ;; esac ;;
        *)
            case $mode in quick) echo 256 ;; full) echo 128 256 512 1024 2048 4096 ;; *) echo 128 512 2048 4096 ;; esac ;;
    esac
}
sizes_of() {
    id=$(echo "$1" | tr -c 'A-Za-z0-9_\n' '_')
    eval "s=\${SIZES_$id:-}"
    [ -n "$s" ] || s=${SIZES:-}
    [ -n "$s" ] || s=$(default_sizes "$1")
    echo "$s" | tr ',' ' '
}
# predict_flags NAME: what hpfpredict needs besides the size. The Laplace
# programs test convergence on a value computed from arrays; the
# tolerance is never reached in MAXIT iterations at these sizes, so the
# test is held false (err=1) and all iterations are predicted. Every
# program may take 10^11 interpretation steps, not the default 10^9: the
# points run for a second or more (MIN_TIME=1), and the data-dependent
# loops of some (lfk14's charge deposit: masked sums over the particles'
# cells) are walked iteration by iteration, about 5 x 10^5 steps an outer
# step, 2.4 x 10^10 at lfk14's 47,964 steps (some 30 s of prediction).
predict_flags() {
    case "$1" in laplace_*) echo "-D err=1 --max-steps 100000000000" ;;
                 *) echo "--max-steps 100000000000" ;; esac
}

# load average of the last minute
load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null; }

now() { date +%s.%N; }

# build_point FILE SIZE ["NAME=VALUE ..."]: the sequential reference
# ($b.ref, refok) and the SPMD program ($b.spmd) of one size, with the
# PARAMETERs named set to their values (the repetition count); fail says
# what went wrong
build_point() {
    refok=unknown
    dflag=
    for a in $3; do dflag="$dflag -D $a"; done
    if [ ! -r "$1" ]; then
        fail="no such program: $1"
        return
    fi
    if [ -n "$FC_REF" ]; then
        # (the size n one of the PARAMETERs set)
        set_params "$1" "n=$2 $3" >"$b.seq.f90"
        if (cd "$OUT/build" && "$FC_REF" $REF_FFLAGS -ffree-line-length-none \
                -o "$b.seq" "$b.seq.f90") >"$b.seq.log" 2>&1 \
           && timeout "$RUN_TIMEOUT" "$b.seq" >"$b.ref" 2>>"$b.seq.log" </dev/null; then
            refok=yes
        else
            refok=no
            say "warning: $name n=$2${3:+ $3}: the sequential reference fails (see $b.seq.log)"
        fi
    fi
    if ! timeout 120 "$HPFC" -D "n=$2" $dflag "$1" -o "$b.spmd.f90" >"$b.hpfc.log" 2>&1; then
        fail="hpfc: $(why "$b.hpfc.log")"
    elif ! (cd "$OUT/build" && "$MPIFC" $MPIFFLAGS -o "$b.spmd" \
            "$b.spmd.f90" $tobj "$lib" $wrap) >"$b.build.log" 2>&1; then
        fail="mpif90: $(why "$b.build.log")"
    fi
}

# run_once NP BASE: one run of $b.spmd on NP processes, its output in
# BASE.out and BASE.err; prints the program's own elapsed time (hpfv),
# status 1 when the run failed
run_once() {
    timeout "$RUN_TIMEOUT" $MPIRUN $MPIRUN_FLAGS -np "$1" "$b.spmd" \
        >"$2.out" 2>"$2.err" </dev/null || return 1
    t=$(sed -n 's/^hpfv: elapsed *\([-+0-9.eE]*\).*/\1/p' "$2.err" | tail -1)
    [ -n "$t" ] || return 1
    echo "$t"
}


# ---- the run ----------------------------------------------------------------
{
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "host=$(uname -a)"
    echo "cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -1) ($(nproc 2>/dev/null || echo '?') cores)"
    echo "mpif90=$("$MPIFC" --version 2>&1 | head -1)"
    echo "mpirun=$("$MPIRUN" --version 2>&1 | head -1)"
    echo "mpif90_flags=$MPIFFLAGS"
    echo "hpfpredict=$("$HPFPREDICT" --version 2>&1 | head -1)"
    echo "sag=$(echo "$SAG" | sed "s|^$srcdir/||; s|^$top_builddir/||")${sag_note:+ ($sag_note)}"
    echo "mode=$mode"
    echo "reps=$REPS per point, after $WARMUP warm-up run(s) not counted; runs of at least ${MIN_TIME} s where the program has a repetition PARAMETER"
    echo "load_start=$(cat /proc/loadavg 2>/dev/null | cut -d' ' -f1-3)"
    echo "np_list=$NP_LIST"
    if [ $timer = hpfv ]; then
        echo "timer=in the program: MPI_Wtime from hpfrt_init to hpfrt_finalize, slowest process (validation/hpfv_timer.f90)"
    else
        echo "timer=wall clock of the whole mpirun command, MPI start-up included (fallback)"
    fi
} >"$OUT/run.info"

echo "$header" >"$csv"
[ "${PROBE:-0}" = 1 ] && rm -f "$OUT/probe.csv"
npoints=0
for p in $PROGRAMS; do
    for s in $(sizes_of "$(basename "$p" .f90)"); do
        for np in $NP_LIST; do npoints=$((npoints + 1)); done
    done
done
say "$(echo $PROGRAMS | wc -w) programs, $npoints points, REPS=$REPS, NP_LIST='$NP_LIST', mode $mode, SAG $SAG"
start=$(now)
ipoint=0

# row FIELDS...: one line of points.csv
row() { (IFS=,; echo "$*") >>"$csv"; }

for p in $PROGRAMS; do
    case "$p" in
        */*|*.f90) f=$p ;;
        *) f="$srcdir/examples/$p.f90" ;;
    esac
    name=$(basename "$f" .f90)
    extra=$(predict_flags "$name")
    rp=$(rep_param "$name" "$f" 2>/dev/null)
    for size in $(sizes_of "$name"); do
        b="$OUT/build/$name.n$size"
        fail=
        # the program at its own repetition count, then (when its runs are
        # shorter than MIN_TIME) at a count that makes them long enough
        repeat=-
        build_point "$f" "$size" ""
        if [ -z "$fail" ] && [ -n "$rp" ] && [ -n "$timer_ok" ]; then
            set -- $rp
            rname=$1 rval=$2 round=0
            # the fixed costs of a run (its start, its output) do not
            # repeat, so the count is raised until the shortest run of the
            # point's processor counts lasts MIN_TIME, in a few rounds
            while [ $round -lt 5 ] && [ -z "$fail" ]; do
                round=$((round + 1))
                tmin=
                for np in $NP_LIST; do
                    t=$(run_once "$np" "$b.probe") || { tmin=; break; }
                    tmin=$(awk -v a="$tmin" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
                done
                [ -n "$tmin" ] || break
                k=$(awk -v t="$tmin" -v m="$MIN_TIME" 'BEGIN {
                    if (t >= m) { print 1; exit }
                    k = int(1.25 * m / (t > 1e-6 ? t : 1e-6)) + 1
                    print (k > 100000 ? 100000 : k) }')
                repeat="$rname=$rval"
                [ "$k" -gt 1 ] || break
                rval=$((rval * k))
                # (a convergence loop's tolerance made unreachable, so that
                # every repetition runs, as predicted with err=1)
                repeat="$rname=$rval"
                case "$name" in laplace_*) repeat="$repeat tol=0.0d0" ;; esac
                build_point "$f" "$size" "$repeat"
            done
        fi
        rflag=
        for a in $repeat; do case "$a" in *=*) rflag="$rflag -D $a" ;; esac; done
        for np in $NP_LIST; do
            ipoint=$((ipoint + 1))
            tag="[$ipoint/$npoints] $name n=$size np=$np"
            # the prediction
            pred=; perr=
            if "$HPFPREDICT" -sag "$SAG" "$f" -np "$np" -D "n=$size" $rflag $extra --format=json \
                    >"$b.np$np.json" 2>"$b.np$np.predict.log"; then
                pred=$(sed -n 's/.*"total": *\([-+0-9.eE]*\).*/\1/p' "$b.np$np.json" | head -1)
            fi
            [ -n "$pred" ] || perr="hpfpredict: $(grep -m1 . "$b.np$np.predict.log")"
            if [ -n "$fail" ]; then
                say "$tag: FAILED: $fail"
                row "$name" "$size" "$np" 0 "" "" "" "" "$pred" "" "" "" "$timer" "failed: $(field "$fail")" \
                    "" "" "$repeat"
                continue
            fi
            # the runs, and the load of the machine as they start
            ld=$(load1)
            : >"$b.np$np.times"
            rfail=; ck=
            [ "${PROBE:-0}" = 1 ] && probe_plan
            # runs not counted: caches, pages and the file system warmed up
            r=0
            while [ $r -lt "$WARMUP" ]; do
                r=$((r + 1))
                timeout "$RUN_TIMEOUT" $MPIRUN $MPIRUN_FLAGS -np "$np" "$b.spmd" \
                    >/dev/null 2>&1 </dev/null
            done
            r=0
            while [ $r -lt "$REPS" ]; do
                r=$((r + 1))
                t0=$(now)
                timeout "$RUN_TIMEOUT" $MPIRUN $MPIRUN_FLAGS -np "$np" "$b.spmd" \
                    >"$b.np$np.out" 2>"$b.np$np.err" </dev/null
                rc=$?
                t1=$(now)
                if [ $rc -ne 0 ]; then
                    rfail="run $r: exit status $rc: $(why "$b.np$np.err")"
                    [ $rc -eq 124 ] && rfail="run $r: over RUN_TIMEOUT=$RUN_TIMEOUT s"
                    break
                fi
                if [ $timer = hpfv ]; then
                    t=$(sed -n 's/^hpfv: elapsed *\([-+0-9.eE]*\).*/\1/p' "$b.np$np.err" | tail -1)
                    if [ -z "$t" ]; then
                        rfail="run $r: no elapsed time on stderr (hpfrt_finalize not reached?)"
                        break
                    fi
                else
                    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.9f", b - a }')
                fi
                echo "$t" >>"$b.np$np.times"
                # the probe run of the same number, right after it
                [ "${PROBE:-0}" = 1 ] && [ "$r" -le "${PROBE_REPS:-3}" ] && probe_once $r
                # the checksum, on the first run
                if [ $r -eq 1 ]; then
                    if [ "$refok" = yes ]; then
                        if same "$b.np$np.out" "$b.ref"; then ck=yes; else ck=no
                            say "$tag: CHECKSUM DIFFERS: $(head -1 "$b.np$np.out") vs $(head -1 "$b.ref")"
                        fi
                    else
                        ck=unknown
                    fi
                fi
            done
            if [ -n "$rfail" ]; then
                say "$tag: FAILED: $rfail"
                row "$name" "$size" "$np" "$((r - 1))" "" "" "" "" "$pred" "" "$ck" "" "$timer" \
                    "failed: $(field "$rfail")" "" "$ld" "$repeat"
                continue
            fi
            # median, range, spread, error
            stats=$(sort -g "$b.np$np.times" | awk -v pred="$pred" '
                { t[NR] = $1 }
                END {
                    n = NR
                    med = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
                    lo = t[1]; hi = t[n]
                    spread = med > 0 ? 100 * (hi - lo) / med : 0
                    if (pred != "" && med > 0) {
                        err = sprintf("%.2f", 100 * (pred - med) / med)
                        errf = sprintf("%.2f", 100 * (pred - lo) / lo)
                        ins = (pred >= lo && pred <= hi) ? "yes" : "no"
                    } else { err = ""; errf = ""; ins = "" }
                    printf "%d,%.9g,%.9g,%.9g,%.1f,%s,%s,%s,%s\n", n, med, lo, hi, spread, pred, err, ins, errf
                }')
            status=ok
            [ -n "$perr" ] && status="failed: $(field "$perr")"
            (IFS=,; set -- $stats
             echo "$name,$size,$np,$1,$2,$3,$4,$5,$6,$7,$ck,$8,$timer,$status,$9,$ld,$repeat") >>"$csv"
            (IFS=,; set -- $stats
             say "$tag${rflag:+ ($repeat)}: measured $2 s [$3 .. $4], predicted ${6:-?} s, error ${7:-?}% (fastest ${9:-?}%), load $ld, checksum $ck")
            [ "${PROBE:-0}" = 1 ] && probe_point
            # the profiled run the forecast is fitted to and checked against
            if [ "${FORECAST:-0}" = 1 ]; then
                rm -f "$b.np$np.prof.csv"
                HPFRT_PROFILE="$b.np$np.prof.csv" timeout "$RUN_TIMEOUT" $MPIRUN $MPIRUN_FLAGS \
                    -np "$np" "$b.spmd" >/dev/null 2>&1 </dev/null ||
                    say "$tag: warning: the profiled run failed"
            fi
        done
    done
done
end=$(now)
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
echo "run_seconds=$elapsed" >>"$OUT/run.info"
echo "load_end=$(cat /proc/loadavg 2>/dev/null | cut -d' ' -f1-3)" >>"$OUT/run.info"
say "measured $npoints points in $elapsed s"
# the machine may have changed while it was measured (a virtual machine's
# host, the clock): the key parameters of the SAG measured again
rm -f "$OUT/drift.txt"
if [ "${DRIFT_CHECK:-1}" != 0 ] && [ -n "$cal" ] && [ "$(basename "$SAG")" != ipsc860.sag ]; then
    say "checking the SAG against this machine again: $cal --check $SAG"
    $MPIRUN $MPIRUN_FLAGS -np 2 "$cal" -q --check "$SAG" >"$OUT/drift.txt" 2>&1
    drift=$(awk '$NF ~ /^[-+][0-9.]+%$/ && NF >= 4 { v = $NF; sub(/%/, "", v); v += 0; a = v < 0 ? -v : v
                                          if (a > m) { m = a; w = $1 " " $NF } }
                 END { if (w != "") print w }' "$OUT/drift.txt")
    echo "drift_end=${drift:-not measured (see drift.txt)}" >>"$OUT/run.info"
fi
[ "${FORECAST:-0}" = 1 ] && forecast_stage
[ "${PROBE:-0}" = 1 ] && rm -f "$OUT/probe.txt" && probe_report
report
exit 0
