/* collpick.c - the algorithms runtime/collfit.c picks for the collectives
 * from their times ("COLL P M SECONDS" lines of collalg.c, with its
 * ping-pong's "oneway P M SECONDS" for the message model) on stdin: one
 * "COLL SMALL LARGE" line each (testsuite/smpi.test). */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include "collfit.h"

int main(void)
{
    static CfSample s[3][512];
    int ns[3] = {0, 0, 0};
    double ow8 = -1, ow1k = -1;
    char what[32];
    int p;
    double m, t;
    while (scanf("%31s %d %lf %lf", what, &p, &m, &t) == 4) {
        int c = !strcmp(what, "bcast") ? CF_BCAST : !strcmp(what, "allreduce") ? CF_REDUCE
              : !strcmp(what, "alltoall") ? CF_ALLTOALL : -1;
        if (c >= 0 && ns[c] < 512)
            s[c][ns[c]++] = (CfSample){p, m, t};
        else if (!strcmp(what, "oneway"))
            *(m <= 8 ? &ow8 : &ow1k) = t;
    }
    if (ow8 <= 0 || ow1k <= ow8) {
        fprintf(stderr, "pick: no one-way times\n");
        return 1;
    }
    double beta = (ow1k - ow8) / (1024 - 8);
    CfNet net = {ow8 - 8 * beta, beta, 0};
    static const char *const names[3] = {"bcast", "allreduce", "alltoall"};
    for (int c = 0; c < 3; c++) {
        CfChoice ch;
        if (collfit_choose(c, &net, s[c], ns[c], 0.1, &ch) == 0)
            printf("%s %s %s\n", names[c], collfit_name(ch.small), collfit_name(ch.large));
    }
    return 0;
}
