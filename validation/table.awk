# table.awk - the paper's Table 4 from points.csv (validation/validate.sh):
# per program the sizes and processor counts measured, the minimum and
# maximum absolute error in percent against the median run, the median and
# maximum against the fastest run, and how many points lie within 10%,
# within 20% and within the spread of the measured runs. Then the targets
# (doc/validation.md): on 1 and 2 processors, against the fastest run, the
# median absolute error and the points within 20%; and the points shorter
# than min_time (seconds, default 0.05).
#   awk -F, -f table.awk -v form=text|md points.csv
# Columns of points.csv: 1 program, 2 size, 3 np, 4 reps, 5 median, 6 min,
# 7 max, 8 spread %, 9 predicted, 10 error %, 11 checksum ok, 12 in spread,
# 13 timer, 14 status, 15 error against the fastest run %, 16 load average,
# 17 the repetition PARAMETER set.
function fmt(v) {
    if (v >= 100) return sprintf("%.0f", v)
    if (v >= 10) return sprintf("%.1f", v)
    if (v >= 0.01) return sprintf("%.2f", v)
    return sprintf("%.2g", v)
}
function addlist(list, v,    n, i, a) {
    n = split(list, a, ",")
    for (i = 1; i <= n; i++) if (a[i] == v) return list
    return list == "" ? v : list "," v
}
function line(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12) {
    if (form == "md")
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c1, c2, c3, c4, c5, c6, c11, c12, c7, c8, c9, c10
    else
        printf "%-11s %-22s %-7s %6s %9s %9s %9s %9s %7s %7s %7s  %s\n", c1, c2, c3, c4, c5, c6, c11, c12, c7, c8, c9, c10
}
# the median of the n values of array a (sorted here)
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
    p = $1
    if (!(p in seen)) { seen[p] = 1; order[++np_] = p }
    sizes[p] = addlist(sizes[p], $2)
    procs[p] = addlist(procs[p], $3)
    npts[p]++; totall++
    if ($14 != "ok") {
        nfail[p]++
        if (!(p in reason)) { reason[p] = $14; sub(/^failed: */, "", reason[p]) }
        next
    }
    if ($11 == "no") nbad[p]++
    if ($10 == "") next
    if ($5 != "" && $5 + 0 < (min_time == "" ? 0.05 : min_time)) nshort++
    if ($15 != "") {
        f = $15 < 0 ? -$15 : $15
        fe[p, ++nfe[p]] = f
        if (f > femax[p] + 0) femax[p] = f
        if ($3 == 1 || $3 == 2) { tf[++ntf] = f; if (f <= 20) tf20++; if (f > tfmax + 0) tfmax = f }
    }
    e = $10 < 0 ? -$10 : $10
    if (!(p in emin) || e < emin[p]) emin[p] = e
    if (!(p in emax) || e > emax[p]) emax[p] = e
    nerr[p]++
    if (e <= 10) n10[p]++
    if (e <= 20) n20[p]++
    if ($12 == "yes") nspread[p]++
    tot++; if (e <= 10) t10++; if (e <= 20) t20++; if ($12 == "yes") tspread++
    if (tot == 1 || e < tmin) tmin = e
    if (tot == 1 || e > tmax) tmax = e
}
END {
    if (form == "md") {
        print "| program | sizes (n) | processors | points | min abs error % | max abs error % | median abs error vs fastest % | max abs error vs fastest % | within 10% | within 20% | within spread | notes |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|"
    } else {
        print "Table 4: estimated against measured times (error = (predicted - measured)/measured)"
        line("program", "sizes (n)", "procs", "points", "min|err|%", "max|err|%", "<=10%", "<=20%", "spread", "notes",
             "med|fst|%", "max|fst|%")
    }
    for (i = 1; i <= np_; i++) {
        p = order[i]
        note = ""
        if (nfail[p]) note = sprintf("%d failed (%s)", nfail[p], reason[p])
        if (nbad[p]) note = (note == "" ? "" : note "; ") sprintf("checksum differs at %d", nbad[p])
        fm = "-"
        if (nfe[p]) {
            delete v
            for (k = 1; k <= nfe[p]; k++) v[k] = fe[p, k]
            fm = fmt(median(v, nfe[p]))
        }
        if (nerr[p])
            line(p, sizes[p], procs[p], npts[p], fmt(emin[p]), fmt(emax[p]),
                 n10[p] + 0 "/" nerr[p], n20[p] + 0 "/" nerr[p], nspread[p] + 0 "/" nerr[p], note,
                 fm, nfe[p] ? fmt(femax[p]) : "-")
        else
            line(p, sizes[p], procs[p], npts[p], "-", "-", "-", "-", "-", note == "" ? "no point" : note, "-", "-")
    }
    if (form == "md")
        printf "| **all** | | | %d | %s | %s | | | %d/%d | %d/%d | %d/%d | |\n", totall,
            tot ? fmt(tmin) : "-", tot ? fmt(tmax) : "-", t10, tot, t20, tot, tspread, tot
    else
        line("all", "", "", totall + 0, tot ? fmt(tmin) : "-", tot ? fmt(tmax) : "-",
             t10 + 0 "/" tot + 0, t20 + 0 "/" tot + 0, tspread + 0 "/" tot + 0, "", "", "")
    tm = ntf ? median(tf, ntf) : 0
    t1 = sprintf("Targets, against the fastest run on 1 and 2 processors: median |error| %s%% (target <= 5%%: %s), %d/%d points within 20%% (target all: %s), largest %s%%.",
                 ntf ? fmt(tm) : "-", ntf && tm <= 5 ? "met" : "missed", tf20, ntf,
                 ntf && tf20 == ntf ? "met" : "missed", ntf ? fmt(tfmax) : "-")
    t2 = sprintf("Points whose median run is shorter than %s s: %d.", min_time == "" ? 0.05 : min_time, nshort)
    print ""
    print t1
    print t2
}
