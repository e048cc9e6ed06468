# table.awk - the paper's Table 4 from points.csv (validation/validate.sh):
# per program the sizes and processor counts measured, the minimum and
# maximum absolute error in percent, and how many points lie within 10%,
# within 20% and within the spread of the measured runs.
#   awk -F, -f table.awk -v form=text|md points.csv
# Columns of points.csv: 1 program, 2 size, 3 np, 4 reps, 5 median, 6 min,
# 7 max, 8 spread %, 9 predicted, 10 error %, 11 checksum ok, 12 in spread,
# 13 timer, 14 status.
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
function line(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10) {
    if (form == "md")
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c1, c2, c3, c4, c5, c6, c7, c8, c9, c10
    else
        printf "%-11s %-22s %-7s %6s %9s %9s %7s %7s %7s  %s\n", c1, c2, c3, c4, c5, c6, c7, c8, c9, c10
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
        print "| program | sizes (n) | processors | points | min abs error % | max abs error % | within 10% | within 20% | within spread | notes |"
        print "|---|---|---|---|---|---|---|---|---|---|"
    } else {
        print "Table 4: estimated against measured times (error = (predicted - measured)/measured)"
        line("program", "sizes (n)", "procs", "points", "min|err|%", "max|err|%", "<=10%", "<=20%", "spread", "notes")
    }
    for (i = 1; i <= np_; i++) {
        p = order[i]
        note = ""
        if (nfail[p]) note = sprintf("%d failed (%s)", nfail[p], reason[p])
        if (nbad[p]) note = (note == "" ? "" : note "; ") sprintf("checksum differs at %d", nbad[p])
        if (nerr[p])
            line(p, sizes[p], procs[p], npts[p], fmt(emin[p]), fmt(emax[p]),
                 n10[p] + 0 "/" nerr[p], n20[p] + 0 "/" nerr[p], nspread[p] + 0 "/" nerr[p], note)
        else
            line(p, sizes[p], procs[p], npts[p], "-", "-", "-", "-", "-", note == "" ? "no point" : note)
    }
    if (form == "md")
        printf "| **all** | | | %d | %s | %s | %d/%d | %d/%d | %d/%d | |\n", totall,
            tot ? fmt(tmin) : "-", tot ? fmt(tmax) : "-", t10, tot, t20, tot, tspread, tot
    else
        line("all", "", "", totall + 0, tot ? fmt(tmin) : "-", tot ? fmt(tmax) : "-",
             t10 + 0 "/" tot + 0, t20 + 0 "/" tot + 0, tspread + 0 "/" tot + 0, "")
}
