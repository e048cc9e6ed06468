! finance.f90 -- parallel stock option pricing.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3:
! Finance; the two phases are those of their Figure 22).
! A binomial (Cox-Ross-Rubinstein) price lattice for a stock over N time
! steps, then the price of a European call at every lattice node.
!   phase 1 builds the distributed price lattice SP(j,t): node j of time
!           level t is reached from level t-1 by an up move (from node
!           j-1) or, for the lowest node, a down move.  Each level is one
!           section assignment shifted by one node along the distributed
!           dimension, so neighbouring processors exchange a boundary value.
!   phase 2 computes, with no communication, the call price at every node:
!           the Black-Scholes value for the time left to expiry (normal
!           distribution by the Abramowitz-Stegun 26.2.17 polynomial), and
!           the payoff max(S - K, 0) at expiry.
! Lattice indices are 1-based: node j (j-1 up moves) at level t (time
! (t-1)*DT); only the nodes j <= t are part of the lattice.
! Mapping: every lattice array aligned with a template of N+1 along the
! node dimension, (BLOCK, *) on all processors.
! Checksum: the sum of the call prices over the lattice nodes (positive).
! Both phases are repeated NREP times (1 here: make validate raises it, so
! that a run is long enough to time), the checksum then NREP times the sum.

program finance
  implicit none
  integer, parameter :: n = 128
  integer, parameter :: nrep = 1
  real(8), dimension(n + 1, n + 1) :: sp, tau, sq, d1, d2, ax, tk, nd1, nd2, cp
  logical, dimension(n + 1, n + 1) :: valid
  real(8) :: s0, strike, rate, sig, expiry, dt, up, dn, rs2pi, s
  real(8) :: pp, b1, b2, b3, b4, b5
  integer :: j, t, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n + 1)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN sp(j, *) WITH tmp(j)
!HPF$ ALIGN tau(j, *) WITH tmp(j)
!HPF$ ALIGN sq(j, *) WITH tmp(j)
!HPF$ ALIGN d1(j, *) WITH tmp(j)
!HPF$ ALIGN d2(j, *) WITH tmp(j)
!HPF$ ALIGN ax(j, *) WITH tmp(j)
!HPF$ ALIGN tk(j, *) WITH tmp(j)
!HPF$ ALIGN nd1(j, *) WITH tmp(j)
!HPF$ ALIGN nd2(j, *) WITH tmp(j)
!HPF$ ALIGN cp(j, *) WITH tmp(j)
!HPF$ ALIGN valid(j, *) WITH tmp(j)

  s0 = 100.0d0
  strike = 100.0d0
  rate = 0.05d0
  sig = 0.2d0
  expiry = 1.0d0
  dt = expiry/dble(n)
  up = exp(sig*sqrt(dt))
  dn = 1.0d0/up
  rs2pi = 1.0d0/sqrt(8.0d0*atan(1.0d0))
  pp = 0.2316419d0
  b1 = 0.319381530d0
  b2 = -0.356563782d0
  b3 = 1.781477937d0
  b4 = -1.821255978d0
  b5 = 1.330274429d0

  s = 0.0d0
  do rep = 1, nrep
    ! phase 1: the distributed price lattice
    sp = s0
    do t = 2, n + 1
      sp(1, t) = dn*sp(1, t - 1)
      sp(2:t, t) = up*sp(1:t - 1, t - 1)
    end do

    ! phase 2: call prices at every node, elementwise (no communication)
    forall (j = 1:n + 1, t = 1:n + 1) tau(j, t) = dble(n + 1 - t)*dt
    forall (j = 1:n + 1, t = 1:n + 1) valid(j, t) = j <= t
    where (tau > 0.0d0)
      sq = sig*sqrt(tau)
      d1 = (log(sp/strike) + (rate + 0.5d0*sig*sig)*tau)/sq
      d2 = d1 - sq
      ax = abs(d1)
      tk = 1.0d0/(1.0d0 + pp*ax)
      nd1 = 1.0d0 - rs2pi*exp(-0.5d0*ax*ax)*tk*(b1 + tk*(b2 + tk*(b3 + tk*(b4 + tk*b5))))
      nd1 = merge(nd1, 1.0d0 - nd1, d1 >= 0.0d0)
      ax = abs(d2)
      tk = 1.0d0/(1.0d0 + pp*ax)
      nd2 = 1.0d0 - rs2pi*exp(-0.5d0*ax*ax)*tk*(b1 + tk*(b2 + tk*(b3 + tk*(b4 + tk*b5))))
      nd2 = merge(nd2, 1.0d0 - nd2, d2 >= 0.0d0)
      cp = sp*nd1 - strike*exp(-rate*tau)*nd2
    elsewhere
      cp = max(sp - strike, 0.0d0)
    end where

    s = s + sum(cp, mask = valid)
  end do
  print '(a,es22.14)', 'finance checksum ', s
end program finance
