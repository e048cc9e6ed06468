# forecast.awk - the resource usage equations verified (make validate
# FORECAST=1; validation/validate.sh): from forecast.csv, the table of
# forecast against measured time per point and component, and the mean
# absolute error of each component over the points not fitted (form=text),
# or the papers' stacked bars, measured (M) beside forecast (F), the
# computation below the communication, one group per point (form=svg):
#   awk -F, -f forecast.awk -v form=text|svg forecast.csv
# and loop by loop, from forecast_loops.csv (each profiled line of each
# point forecast): the table of measured against forecast computation and
# communication (form=loops), and the bars of each program's largest
# point, line by line (form=loopsvg):
#   awk -F, -f forecast.awk -v form=loops|loopsvg forecast_loops.csv
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function ms(t) { return t == "" ? "-" : sprintf("%.3f", 1000 * t) }
function pc(e) { return e == "" ? "-" : sprintf("%+.1f%%", e) }
NR == 1 { next }
form == "loops" || form == "loopsvg" {
    # forecast_loops.csv: program,size,np,fitted,line,M comp,F comp,M comm,F comm
    if ($4 != "no") next
    k = $1 SUBSEP $2 SUBSEP $3
    if (!(k in seenpt)) { seenpt[k] = 1; npt++; pts[npt] = k }
    nl[k]++; L[k, nl[k]] = $5; LMC[k, nl[k]] = $6; LFC[k, nl[k]] = $7
    LMM[k, nl[k]] = $8; LFM[k, nl[k]] = $9
    # the program's largest point forecast: its bars in the plot
    if (!($1 in big) || $2 + 0 > bsize[$1] || ($2 + 0 == bsize[$1] && $3 + 0 > bnp[$1])) {
        if (!($1 in big)) { nprog++; progs[nprog] = $1 }
        big[$1] = k; bsize[$1] = $2 + 0; bnp[$1] = $3 + 0
    }
    next
}
{
    n++
    prog[n] = $1; size[n] = $2; np[n] = $3; fit[n] = $4
    mt[n] = $5; ft[n] = $6; et[n] = $7; mc[n] = $8; fc[n] = $9; ec[n] = $10
    mm[n] = $11; fm[n] = $12; em[n] = $13
    if ($4 == "no") {
        if ($7 != "") { st += ($7 < 0 ? -$7 : $7); nt++ }
        if ($10 != "") { sc += ($10 < 0 ? -$10 : $10); nc++ }
        if ($13 != "" && $11 > 1e-4) { sm += ($13 < 0 ? -$13 : $13); nm++ }
        if ($13 != "" && $11 > 1e-4 && $3 > 1) { sm2 += ($13 < 0 ? -$13 : $13); nm2++ }
    }
}
END {
    if (form == "svg") { svg(); exit }
    if (form == "loops") { loops(); exit }
    if (form == "loopsvg") { loopsvg(); exit }
    printf "%-12s %6s %4s %4s | %10s %10s %8s | %10s %10s %8s | %10s %10s %8s\n", "program",
           "n", "np", "fit", "M total", "F total", "error", "M comp", "F comp", "error",
           "M comm", "F comm", "error"
    printf "%-12s %6s %4s %4s | %10s %10s %8s | %10s %10s %8s | %10s %10s %8s\n", "", "", "", "",
           "ms", "ms", "", "ms", "ms", "", "ms", "ms", ""
    for (i = 1; i <= n; i++)
        printf "%-12s %6s %4s %4s | %10s %10s %8s | %10s %10s %8s | %10s %10s %8s\n", prog[i],
               size[i], np[i], fit[i], ms(mt[i]), ms(ft[i]), pc(et[i]), ms(mc[i]), ms(fc[i]),
               pc(ec[i]), ms(mm[i]), ms(fm[i]), pc(em[i])
    printf "\nmean absolute error of the points forecast (not fitted): total %s over %d, " \
           "computation %s over %d, communication %s over %d (of 0.1 ms or more; %s over the " \
           "%d on 2 or more processors: on one, the equations have no messages while the " \
           "run time copies)\n",
           nt ? sprintf("%.1f%%", st / nt) : "-", nt, nc ? sprintf("%.1f%%", sc / nc) : "-", nc,
           nm ? sprintf("%.1f%%", sm / nm) : "-", nm, nm2 ? sprintf("%.1f%%", sm2 / nm2) : "-", nm2
}
function svg(   W, H, i, x, y, bw, top, h, k, lab) {
    bw = 9; W = 80 + n * (2 * bw + 10) + 40; H = 420
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", W, H, W, H
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"20\" font-size=\"14\" text-anchor=\"middle\">forecast (F) against measured (M) per point, each pair scaled to its larger total</text>\n", W / 2
    printf "<rect x=\"80\" y=\"30\" width=\"12\" height=\"10\" fill=\"#1f77b4\"/><text x=\"96\" y=\"39\" font-size=\"11\">computation</text>\n"
    printf "<rect x=\"190\" y=\"30\" width=\"12\" height=\"10\" fill=\"#ff7f0e\"/><text x=\"206\" y=\"39\" font-size=\"11\">communication</text>\n"
    printf "<rect x=\"320\" y=\"30\" width=\"12\" height=\"10\" fill=\"#cccccc\"/><text x=\"336\" y=\"39\" font-size=\"11\">rest of the measured time</text>\n"
    top = 60; h = 260
    for (i = 1; i <= n; i++) {
        x = 80 + (i - 1) * (2 * bw + 10)
        k = mt[i] > ft[i] ? mt[i] : ft[i]
        if (k <= 0) continue
        bar(x, top, h, mc[i] / k, mm[i] / k, mt[i] / k, "M")
        bar(x + bw, top, h, fc[i] / k, fm[i] / k, ft[i] / k, "F")
        lab = esc(prog[i] " n=" size[i] " np=" np[i] (fit[i] == "yes" ? " (fitted)" : ""))
        printf "<text transform=\"translate(%d,%d) rotate(60)\" font-size=\"9\">%s</text>\n", x + 4, top + h + 6, lab
    }
    printf "</svg>\n"
}
function bar(x, top, h, c, m, t, tag,   yc, ym, yr) {
    if (c < 0) c = 0; if (m < 0) m = 0
    if (c + m > t) t = c + m
    yc = top + h - c * h; ym = yc - m * h; yr = top + h - t * h
    printf "<rect x=\"%d\" y=\"%.1f\" width=\"8\" height=\"%.1f\" fill=\"#cccccc\"/>\n", x, yr, ym - yr
    printf "<rect x=\"%d\" y=\"%.1f\" width=\"8\" height=\"%.1f\" fill=\"#ff7f0e\"/>\n", x, ym, m * h
    printf "<rect x=\"%d\" y=\"%.1f\" width=\"8\" height=\"%.1f\" fill=\"#1f77b4\"><title>%s</title></rect>\n", x, yc, c * h, tag
}

function loops(   i, j, k, a, nb, sc, n1) {
    printf "\nLoop by loop (each profiled line, the points forecast; lines of 0.1 ms or more):\n"
    printf "%-12s %6s %4s %5s | %10s %10s %8s | %10s %10s %8s\n", "program", "n", "np", "line",
           "M comp ms", "F comp ms", "error", "M comm ms", "F comm ms", "error"
    for (i = 1; i <= npt; i++) {
        k = pts[i]; split(k, a, SUBSEP)
        for (j = 1; j <= nl[k]; j++) {
            if (LMC[k, j] + LMM[k, j] < 1e-4) continue
            printf "%-12s %6s %4s %5s | %10s %10s %8s | %10s %10s %8s\n", a[1], a[2], a[3], L[k, j],
                   ms(LMC[k, j]), ms(LFC[k, j]), pc(LMC[k, j] > 1e-4 ? 100 * (LFC[k, j] - LMC[k, j]) / LMC[k, j] : ""),
                   ms(LMM[k, j]), ms(LFM[k, j]), pc(LMM[k, j] > 1e-4 ? 100 * (LFM[k, j] - LMM[k, j]) / LMM[k, j] : "")
            if (LMC[k, j] > 1e-4) { sc += abs(100 * (LFC[k, j] - LMC[k, j]) / LMC[k, j]); n1++ }
        }
    }
    printf "mean absolute error of the loops' computation: %s over %d\n",
           n1 ? sprintf("%.1f%%", sc / n1) : "-", n1
}
function abs(x) { return x < 0 ? -x : x }
function loopsvg(   W, H, i, j, k, x, y0, h, m, bw, lab, nbar, pi) {
    # one row of bars per program: its largest point forecast, M beside F per line
    nbar = 0
    for (pi = 1; pi <= nprog; pi++) nbar = nl[big[progs[pi]]] > nbar ? nl[big[progs[pi]]] : nbar
    bw = 9; W = 200 + nbar * (2 * bw + 12); H = 60 + nprog * 150
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", W, H, W, H
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"20\" font-size=\"14\" text-anchor=\"middle\">loop by loop: measured (M) beside forecast (F), computation below communication</text>\n", W / 2
    for (pi = 1; pi <= nprog; pi++) {
        k = big[progs[pi]]
        y0 = 60 + (pi - 1) * 150; h = 100
        m = 0
        for (j = 1; j <= nl[k]; j++) {
            if (LMC[k, j] + LMM[k, j] > m) m = LMC[k, j] + LMM[k, j]
            if (LFC[k, j] + LFM[k, j] > m) m = LFC[k, j] + LFM[k, j]
        }
        split(k, lab, SUBSEP)
        printf "<text x=\"10\" y=\"%d\" font-size=\"11\">%s n=%s np=%s</text>\n", y0 + h / 2, esc(lab[1]), lab[2], lab[3]
        if (m <= 0) continue
        for (j = 1; j <= nl[k]; j++) {
            x = 180 + (j - 1) * (2 * bw + 12)
            bar(x, y0, h, LMC[k, j] / m, LMM[k, j] / m, (LMC[k, j] + LMM[k, j]) / m, "M line " L[k, j])
            bar(x + bw, y0, h, LFC[k, j] / m, LFM[k, j] / m, (LFC[k, j] + LFM[k, j]) / m, "F line " L[k, j])
            printf "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%s</text>\n", x + bw, y0 + h + 12, L[k, j]
        }
    }
    printf "</svg>\n"
}
