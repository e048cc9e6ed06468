# svg.awk - estimated against measured time of one program, as an SVG 1.1
# plot (after the paper's Figures 25-37), from points.csv
# (validation/validate.sh):
#   awk -F, -f svg.awk -v prog=NAME [-v sag=TEXT] points.csv > NAME.svg
# x: the problem size n (logarithmic when the sizes span a factor 4 or
# more), y: time in seconds (logarithmic). One colour per processor count:
# the measured median as a filled circle with a bar from the fastest to the
# slowest run, joined by a solid line; the prediction as an open square,
# joined by a dashed line. The series are drawn a few pixels apart at each
# size, so that their bars stay visible.
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function lg(v) { return log(v) / log(10) }
function X(s) {
    if (xmax == xmin) return (X0 + X1) / 2
    if (xlog) return X0 + (log(s) - log(xmin)) / (log(xmax) - log(xmin)) * (X1 - X0)
    return X0 + (s - xmin) / (xmax - xmin) * (X1 - X0)
}
function Y(t) { return Y1 - (lg(t) - ylo) / (yhi - ylo) * (Y1 - Y0) }
function tlabel(t,    u, v) {
    if (t >= 1) { u = "s"; v = t }
    else if (t >= 1e-3) { u = "ms"; v = t * 1e3 }
    else if (t >= 1e-6) { u = "us"; v = t * 1e6 }
    else { u = "ns"; v = t * 1e9 }
    return sprintf("%g %s", v + 0, u)
}
function see(t) {
    if (t <= 0) return
    if (!nt || t < tmin) tmin = t
    if (!nt || t > tmax) tmax = t
    nt++
}
function sortnum(a, n,    i, j, x) {
    for (i = 2; i <= n; i++) {
        x = a[i]
        for (j = i - 1; j >= 1 && a[j] + 0 > x + 0; j--) a[j + 1] = a[j]
        a[j + 1] = x
    }
}
BEGIN {
    W = 760; H = 460; X0 = 90; X1 = 560; Y0 = 60; Y1 = 380
    split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf", col, " ")
}
NR == 1 || $1 != prog { next }
{
    s = $2 + 0; p = $3 + 0
    if (!((s) in hs)) { hs[s] = 1; ns++; sz[ns] = s }
    if (!((p) in hp)) { hp[p] = 1; nps++; pl[nps] = p }
    if ($9 != "" && $9 + 0 > 0) { pred[s, p] = $9 + 0; see($9 + 0) }
    if ($14 == "ok" && $5 != "") {
        med[s, p] = $5 + 0; lo[s, p] = $6 + 0; hi[s, p] = $7 + 0
        see($5 + 0); see($6 + 0); see($7 + 0)
    } else if ($14 != "ok" && why == "") why = $14
}
END {
    sortnum(sz, ns); sortnum(pl, nps)
    xmin = sz[1]; xmax = sz[ns]
    xlog = xmin > 0 && xmax >= 4 * xmin
    if (xmax > xmin) {   # a margin of 4% on each side
        if (xlog) { r = log(xmax / xmin) * 0.04; xmin = xmin / exp(r); xmax = xmax * exp(r) }
        else { r = (xmax - xmin) * 0.04; xmin -= r; xmax += r }
    }
    print "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>"
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
    printf "<title>%s: estimated and measured execution time</title>\n", esc(prog)
    printf "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
    printf "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s: estimated and measured time</text>\n", X0, esc(prog)
    if (sag != "")
        printf "<text x=\"%d\" y=\"42\" font-size=\"11\" fill=\"#555555\">predicted on %s</text>\n", X0, esc(sag)
    printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", X0, Y0, X1 - X0, Y1 - Y0
    if (!nt) {
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no time to plot%s</text>\n", (X0 + X1) / 2, (Y0 + Y1) / 2, why == "" ? "" : ": " esc(why)
        print "</svg>"
        exit
    }
    ylo = int(lg(tmin)); if (ylo > lg(tmin)) ylo--
    yhi = int(lg(tmax)); if (yhi < lg(tmax)) yhi++
    if (yhi <= ylo) yhi = ylo + 1
    # y grid: decades, with 2 and 5 between them when there are few
    for (k = ylo; k <= yhi; k++) {
        for (m = 1; m <= 5; m += (m == 1 ? 1 : 3)) {
            if (m > 1 && yhi - ylo > 3) continue
            v = m * 10 ^ k
            if (lg(v) > yhi + 1e-9) continue
            y = Y(v)
            printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", X0, y, X1, y, m == 1 ? "#cccccc" : "#eeeeee"
            printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", X0 - 6, y + 4, tlabel(v)
        }
    }
    # x ticks at the sizes measured
    for (i = 1; i <= ns; i++) {
        x = X(sz[i])
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eeeeee\"/>\n", x, Y0, x, Y1
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n", x, Y1, x, Y1 + 5
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, Y1 + 18, sz[i]
    }
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">problem size n%s</text>\n", (X0 + X1) / 2, Y1 + 40, xlog ? " (logarithmic)" : ""
    printf "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">time (logarithmic)</text>\n", (Y0 + Y1) / 2, (Y0 + Y1) / 2
    # the series
    ly = Y0 + 6
    for (j = 1; j <= nps; j++) {
        p = pl[j]; c = col[(j - 1) % 8 + 1]
        dx = (j - (nps + 1) / 2) * 5   # series side by side, so bars do not hide each other
        mpts = ""; ppts = ""
        for (i = 1; i <= ns; i++) {
            s = sz[i]
            if ((s, p) in med) mpts = mpts sprintf(" %.1f,%.1f", X(s) + dx, Y(med[s, p]))
            if ((s, p) in pred) ppts = ppts sprintf(" %.1f,%.1f", X(s) + dx, Y(pred[s, p]))
        }
        if (mpts != "")
            printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", substr(mpts, 2), c
        if (ppts != "")
            printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n", substr(ppts, 2), c
        for (i = 1; i <= ns; i++) {
            s = sz[i]; x = X(s) + dx
            if ((s, p) in med) {
                if (lo[s, p] > 0 && hi[s, p] > 0) {
                    printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x, Y(lo[s, p]), x, Y(hi[s, p]), c
                    printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x - 4, Y(lo[s, p]), x + 4, Y(lo[s, p]), c
                    printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x - 4, Y(hi[s, p]), x + 4, Y(hi[s, p]), c
                }
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>n=%s np=%s measured %s s</title></circle>\n", x, Y(med[s, p]), c, s, p, med[s, p]
            }
            if ((s, p) in pred)
                printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"white\" stroke=\"%s\" stroke-width=\"1.5\"><title>n=%s np=%s predicted %s s</title></rect>\n", x - 4, Y(pred[s, p]) - 4, c, s, p, pred[s, p]
        }
        # the legend
        lx = X1 + 20
        printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", lx, ly, lx + 24, ly, c
        printf "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n", lx + 12, ly, c
        printf "<text x=\"%d\" y=\"%d\">np=%s measured</text>\n", lx + 32, ly + 4, p
        ly += 20
        printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n", lx, ly, lx + 24, ly, c
        printf "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"8\" fill=\"white\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", lx + 8, ly - 4, c
        printf "<text x=\"%d\" y=\"%d\">np=%s predicted</text>\n", lx + 32, ly + 4, p
        ly += 28
    }
    printf "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555555\">bars: fastest to slowest run</text>\n", X1 + 20, ly
    if (why != "")
        printf "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#aa0000\">some points failed: %s</text>\n", X0, H - 12, esc(substr(why, 1, 100))
    print "</svg>"
}
