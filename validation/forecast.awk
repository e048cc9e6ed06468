# forecast.awk - the resource usage equations verified (make validate
# FORECAST=1; validation/validate.sh): from forecast.csv, the table of
# forecast against measured time per point and component, and the mean
# absolute error of each component over the points not fitted (form=text),
# or the papers' stacked bars, measured (M) beside forecast (F), the
# computation below the communication, one group per point (form=svg):
#   awk -F, -f forecast.awk -v form=text|svg forecast.csv
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function ms(t) { return t == "" ? "-" : sprintf("%.3f", 1000 * t) }
function pc(e) { return e == "" ? "-" : sprintf("%+.1f%%", e) }
NR == 1 { next }
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
