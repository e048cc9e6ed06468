! pbs1.f90 -- Purdue Benchmarking Set 1: trapezoidal rule.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: PBS 1).
! Estimates the integral of f(x) = x*exp(-x) + 1/(1 + x**2) over [A, B]
! with the trapezoidal rule on N intervals of width H:
!     T = H*(sum of f at the N+1 points - (f(A) + f(B))/2)
! The abscissae and function values are distributed arrays; the sum is one
! global reduction, the two end values are broadcast.  Repeated for NREP
! upper limits B, which cycle through ten values in (1, 4]: a repetition
! count raised for timing (validation/validate.sh) keeps EXP's arguments in
! the same range (past about 708, EXP underflows and takes its slow path).
! Mapping: X and FX aligned with a 1-D template of N+1, (BLOCK) on all
! processors.
! Checksum: the sum of the NREP estimates (all positive).

program pbs1
  implicit none
  integer, parameter :: n = 1024
  integer, parameter :: nrep = 10
  real(8), dimension(n + 1) :: x, fx
  real(8) :: a, b, h, t, s
  integer :: i, rep
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tmp(n + 1)
!HPF$ DISTRIBUTE tmp(BLOCK) ONTO p
!HPF$ ALIGN x(i) WITH tmp(i)
!HPF$ ALIGN fx(i) WITH tmp(i)

  a = 0.0d0
  s = 0.0d0
  do rep = 1, nrep
    b = 1.0d0 + 0.3d0*dble(mod(rep - 1, 10) + 1)
    h = (b - a)/dble(n)
    forall (i = 1:n + 1) x(i) = a + h*dble(i - 1)
    fx = x*exp(-x) + 1.0d0/(1.0d0 + x*x)
    t = h*(sum(fx) - 0.5d0*(fx(1) + fx(n + 1)))
    s = s + t
  end do

  print '(a,es22.14)', 'pbs1 checksum ', s
end program pbs1
