examples/pi.f90 on ipsc860: 1 processor (SAG unit node, hypercube dimension 0)
program pi, lines 12-34: 16 AAUs, slowest processor 0
                       mean(s)      %   slowest(s)   fastest(s)
  time                0.045565  100.0     0.045565     0.045565   imbalance 0.0%
  computation         0.040449   88.8     0.040449
  communication       0.002020    4.4     0.002020
  overhead            0.003096    6.8     0.003096
  waiting             0.000000    0.0     0.000000

examples/pi.f90 on ipsc860: 8 processors (SAG unit node, hypercube dimension 3)
program pi, lines 12-34: 16 AAUs, slowest processor 0
                       mean(s)      %   slowest(s)   fastest(s)
  time                0.008126  100.0     0.009893     0.007873   imbalance 17.9%
  computation         0.004739   58.3     0.004739
  communication       0.002589   31.9     0.004356
  overhead            0.000708    8.7     0.000708
  waiting             0.000090    1.1     0.000090
