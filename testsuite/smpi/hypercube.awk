# hypercube.awk - a SimGrid platform (XML, version 4.1) of a hypercube of
# 2^d hosts h0 .. h(2^d - 1) for the outside check of the communication
# model (smpi.test): one link of latency `hop` (seconds) between the nodes
# whose numbers differ in one bit, routes dimension by dimension from the
# lowest (e-cube, as net.routing = ecube), so that a route of h hops has
# latency h x hop. The bandwidth is unbounded and the links are FATPIPE
# (no sharing): the message's start-up and per-byte times are the SMPI
# overheads smpi/os and smpi/ois of the sender, as in hpfpredict's model,
# where the sender is busy for start-up + bytes x per_byte.
# awk -v d=3 -v hop=3e-6 -f hypercube.awk > hc3.xml
function bit(x, k) { return int(x / 2 ^ k) % 2 }
function link(a, b) { return "<link_ctn id=\"c" (a < b ? a : b) "_" (a < b ? b : a) "\"/>" }
BEGIN {
    P = 2 ^ d
    print "<?xml version=\"1.0\"?>"
    print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
    print "<platform version=\"4.1\">"
    print "<zone id=\"cube\" routing=\"Full\">"
    for (i = 0; i < P; i++)
        print "  <host id=\"h" i "\" speed=\"1Gf\"/>"
    for (i = 0; i < P; i++)
        for (k = 0; k < d; k++) {
            j = i + (bit(i, k) ? -1 : 1) * 2 ^ k
            if (i < j)
                printf "  <link id=\"c%d_%d\" bandwidth=\"1e20Bps\" latency=\"%.9gs\" sharing_policy=\"FATPIPE\"/>\n", i, j, hop
        }
    for (s = 0; s < P; s++)
        for (t = 0; t < P; t++) {
            if (s == t)
                continue
            r = ""
            c = s
            for (k = 0; k < d; k++)
                if (bit(s, k) != bit(t, k)) {
                    x = c + (bit(c, k) ? -1 : 1) * 2 ^ k
                    r = r link(c, x)
                    c = x
                }
            print "  <route src=\"h" s "\" dst=\"h" t "\" symmetrical=\"NO\">" r "</route>"
        }
    print "</zone>"
    print "</platform>"
}
