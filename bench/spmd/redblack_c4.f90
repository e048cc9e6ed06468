! redblack_c4.f90 -- a benchmark of make bench-spmd (bench/spmd.sh): red-black
! Gauss-Seidel relaxation of Laplace's equation with the rows dealt out in
! blocks of four (CYCLIC(4), the usual choice for load balance when the
! work varies by row). Each sweep updates the red points from the black
! ones, then the black from the red, through masked FORALLs; NREP sweeps.
program redblack_c4
  implicit none
  integer, parameter :: n = 256
  integer, parameter :: nrep = 20
  real(8) :: u(n, n), f(n, n)
  real(8) :: h2, s
  integer :: i, j, it
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE u(CYCLIC(4), *) ONTO p
!HPF$ ALIGN f(i, j) WITH u(i, j)

  h2 = 1.0d0/dble(n - 1)**2
  u = 0.0d0
  forall (i = 1:n) u(i, n) = 1.0d0
  forall (i = 1:n, j = 1:n) f(i, j) = 1.0d-3*dble(mod(i*j, 11))
  do it = 1, nrep
    forall (i = 2:n - 1, j = 2:n - 1, mod(i + j, 2) == 0)                    &
      u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) &
                        - h2*f(i, j))
    forall (i = 2:n - 1, j = 2:n - 1, mod(i + j, 2) == 1)                    &
      u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) &
                        - h2*f(i, j))
  end do
  s = sum(u)
  print '(a,es22.14)', 'redblack_c4 checksum ', s
end program redblack_c4
