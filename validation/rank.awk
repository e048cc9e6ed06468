# rank.awk - the three Laplace mappings ranked by measured and by predicted
# time at each size and processor count, from points.csv
# (validation/validate.sh): does the prediction rank them as the
# measurement does (the paper's directive-selection finding)?
#   awk -F, -f rank.awk -v form=text|md points.csv
# bb = (BLOCK,BLOCK) on PRC(2,2), bs = (BLOCK,*) on PRC(4), sb = (*,BLOCK)
# on PRC(4) (laplace_bb/bs/sb.f90). "overlap" marks a measured ranking
# whose neighbours' min..max ranges overlap: the measured order is then
# within the noise of the runs; "predicted tie" marks two mappings predicted
# the same time (on one processor the three do the same work). A ranking
# that differs only in pairs the measurement does not separate (their
# min..max ranges overlap) and that the prediction puts closer together
# than the runs' spread is counted apart, "within the runs' spread": the
# measured order of such a pair is the noise's, not the program's. The harness
# raises each program's MAXIT on its own (column 17, "maxit=N"), so the
# times are compared at one iteration count, the largest of the three:
# each scaled by that count over its own.
function order(t, m,    a, b, c, x) {
    a = "bb"; b = "bs"; c = "sb"
    if (t[m, b] < t[m, a]) { x = a; a = b; b = x }
    if (t[m, c] < t[m, b]) { x = b; b = c; c = x }
    if (t[m, b] < t[m, a]) { x = a; a = b; b = x }
    o1 = a; o2 = b; o3 = c
    return a " < " b " < " c
}
function g(v) { return sprintf("%.3g", v) }
function absv(x) { return x < 0 ? -x : x }
# the measured spread of mapping m at point k, relative to its median
function spread(k, m) { return meas[k, m] > 0 ? (hi[k, m] - lo[k, m]) / meas[k, m] : 0 }
# mappings x and y are ordered one way by the measurement and the other by
# the prediction: is that within the noise? (ranges overlap, predicted
# gap below the wider spread of the two)
function noise_swap(k, x, y,    s) {
    if (!(hi[k, x] >= lo[k, y] && hi[k, y] >= lo[k, x])) return 0
    s = spread(k, x); if (spread(k, y) > s) s = spread(k, y)
    return absv(pred[k, x] - pred[k, y]) <= s * (pred[k, x] > pred[k, y] ? pred[k, x] : pred[k, y])
}
# two predictions equal to 1e-6: their order means nothing
function tie(a, b) { return (a > b ? a - b : b - a) <= 1e-6 * (a > b ? a : b) }
NR == 1 { next }
$1 ~ /^laplace_(bb|bs|sb)$/ && $14 == "ok" && $5 != "" && $9 != "" {
    m = substr($1, 9)
    k = $2 SUBSEP $3
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    meas[k, m] = $5 + 0; lo[k, m] = $6 + 0; hi[k, m] = $7 + 0; pred[k, m] = $9 + 0
    it[k, m] = 1
    if (match($17, /maxit=[0-9]+/)) it[k, m] = substr($17, RSTART + 6, RLENGTH - 6) + 0
    if (!((k, m) in got)) { got[k, m] = 1; have[k]++ }   # a repeated row counts once
}
END {
    if (form == "md") {
        print "| n | np | measured, fastest first (s) | predicted, fastest first (s) | ranking | best |"
        print "|---|---|---|---|---|---|"
    } else
        print "Laplace mappings, fastest first (bb = (BLOCK,BLOCK), bs = (BLOCK,*), sb = (*,BLOCK)):"
    same = 0; best = 0; total = 0
    for (i = 1; i <= nk; i++) {
        k = keys[i]
        if (have[k] != 3) continue
        split(k, kk, SUBSEP)
        total++
        R = it[k, "bb"]
        if (it[k, "bs"] > R) R = it[k, "bs"]
        if (it[k, "sb"] > R) R = it[k, "sb"]
        for (j = 1; j <= 3; j++) {
            m = j == 1 ? "bb" : j == 2 ? "bs" : "sb"
            f = R / it[k, m]
            meas[k, m] *= f; lo[k, m] *= f; hi[k, m] *= f; pred[k, m] *= f
        }
        om = order(meas, k); m1 = o1; m2 = o2; m3 = o3
        op = order(pred, k); p1 = o1
        overlap = hi[k, m1] >= lo[k, m2] || hi[k, m2] >= lo[k, m3]
        ok = om == op; if (ok) same++
        # within the noise: every pair ordered differently is a noise swap
        nz = !ok
        split("bb bs sb", mm, " ")
        for (a = 1; a <= 3 && nz; a++)
            for (b = a + 1; b <= 3 && nz; b++)
                if ((meas[k, mm[a]] < meas[k, mm[b]]) != (pred[k, mm[a]] < pred[k, mm[b]]) \
                    && !noise_swap(k, mm[a], mm[b]))
                    nz = 0
        if (nz) noisy++
        okb = m1 == p1; if (okb) best++
        dm = sprintf("%s %s < %s %s < %s %s", m1, g(meas[k, m1]), m2, g(meas[k, m2]), m3, g(meas[k, m3]))
        split(op, pp, " < ")
        dp = sprintf("%s %s < %s %s < %s %s", pp[1], g(pred[k, pp[1]]), pp[2], g(pred[k, pp[2]]), pp[3], g(pred[k, pp[3]]))
        note = overlap ? "measured ranges overlap" : ""
        if (tie(pred[k, pp[1]], pred[k, pp[2]]) || tie(pred[k, pp[2]], pred[k, pp[3]]))
            note = (note == "" ? "" : note "; ") "predicted tie"
        verdict = (ok ? "matches" : nz ? "within the runs' spread" : "differs") (note == "" ? "" : " (" note ")")
        if (form == "md")
            printf "| %s | %s | %s | %s | %s | %s |\n", kk[1], kk[2], dm, dp, verdict, okb ? "same" : "differs"
        else
            printf "  n=%-5s np=%-3s measured %s; predicted %s: ranking %s, best %s\n",
                kk[1], kk[2], dm, dp, verdict, okb ? "same" : "differs"
    }
    if (total == 0) {
        print (form == "md" ? "| | | | | no point | |" : "  no point: the ranking needs laplace_bb, laplace_bs and laplace_sb measured and predicted")
        exit
    }
    if (form == "md") {
        print ""
        printf "Predicted ranking equal to the measured one at %d of %d points (%d of %d counting the rankings that differ only within the runs' spread); best mapping the same at %d of %d.\n", same, total, same + noisy, total, best, total
    } else
        printf "  ranking matches at %d of %d points (%d of %d counting those that differ only within the runs' spread); best mapping the same at %d of %d\n", same, total, same + noisy, total, best, total
}
