# crossbar.awk - a SimGrid platform (XML, version 4.1) of P hosts h0 .. h(P-1),
# each pair joined by a link of its own (FATPIPE, unbounded bandwidth) of
# latency `lat` seconds, for the check of the collectives' identification
# (smpi.test): awk -v P=8 -v lat=5e-6 -f crossbar.awk > x8.xml
BEGIN {
    print "<?xml version=\"1.0\"?>"
    print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
    print "<platform version=\"4.1\">"
    print "<zone id=\"x\" routing=\"Full\">"
    for (i = 0; i < P; i++)
        print "  <host id=\"h" i "\" speed=\"1Gf\"/>"
    for (i = 0; i < P; i++)
        for (j = i + 1; j < P; j++)
            printf "  <link id=\"l%d_%d\" bandwidth=\"1e20Bps\" latency=\"%.9gs\" sharing_policy=\"FATPIPE\"/>\n", i, j, lat
    for (i = 0; i < P; i++)
        for (j = i + 1; j < P; j++)
            print "  <route src=\"h" i "\" dst=\"h" j "\"><link_ctn id=\"l" i "_" j "\"/></route>"
    print "</zone>"
    print "</platform>"
}
