! solver.f90 -- a solver with set-up, iteration and output phases, for the
! software probes (doc/probes.md; make validate PROBE=1 PROGRAMS=...):
! the set-up builds a field and a source term, the iteration relaxes the
! field (a five-point stencil, its change, a maximum), every tenth step
! a residual is taken, and the output reduces the result.
! Checksum: the field's sum and its largest value.
program solver
  implicit none
  integer, parameter :: n = 256
  integer, parameter :: nrep = 50
  real(8), dimension(n, n) :: u, v, f, r
  real(8) :: pi, change, res, s, top
  integer :: i, j, it
!HPF$ PROCESSORS p(2)
!HPF$ DISTRIBUTE u(BLOCK, *) ONTO p
!HPF$ ALIGN v(i, j) WITH u(i, j)
!HPF$ ALIGN f(i, j) WITH u(i, j)
!HPF$ ALIGN r(i, j) WITH u(i, j)

  ! set-up: the source term and a first field
  pi = 4.0d0*atan(1.0d0)
  forall (i = 1:n, j = 1:n) f(i, j) = sin(pi*dble(i)/dble(n + 1))*cos(pi*dble(j)/dble(n + 1))
  forall (i = 1:n, j = 1:n) u(i, j) = dble(mod(i*j, 7))/7.0d0
  v = u
  r = 0.0d0

  ! iteration: relaxation, its change, a residual every tenth step
  do it = 1, nrep
    forall (i = 2:n - 1, j = 2:n - 1) &
      v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - f(i, j))
    change = maxval(abs(v - u))
    u = v
    if (mod(it, 10) == 0) then
      forall (i = 2:n - 1, j = 2:n - 1) &
        r(i, j) = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0d0*u(i, j) - f(i, j)
      res = sum(r*r)
    end if
  end do

  ! output
  s = sum(u)
  top = maxval(u)
  print '(a,2es22.14)', 'solver checksum ', s, top
end program solver
