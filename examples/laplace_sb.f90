! laplace_sb.f90 -- Laplace solver by Jacobi iteration, (*,BLOCK) mapping.
!
! Validation suite of hpfpredict (after Parashar & Hariri, Table 3: Laplace;
! the mapping is the (*,BLOCK) column of their Table 5).
! Solves the Laplace equation on an N x N grid with fixed values on the
! boundary.  A is the current iterate, B the next one (each interior point
! the mean of its four neighbours in A), C the boundary values and D the
! change |B - A|, whose maximum is the convergence test.  At most MAXIT
! iterations (the tolerance is tight, so normally all of them run).
! Mapping: a 1-D template TEMP(N) distributed (BLOCK) onto 4 processors;
! column j of A, B, C and D aligned with TEMP(j), so blocks of whole
! columns.
! laplace_bb.f90, laplace_bs.f90 and laplace_sb.f90 differ only in the
! directives, for comparing the three mappings.
! Checksum: the sum of the final iterate A (all values positive).

program laplace_sb
  implicit none
  integer, parameter :: n = 128
  integer, parameter :: maxit = 100
  real(8), parameter :: tol = 1.0d-12
  real(8), dimension(n, n) :: a, b, c, d
  real(8) :: err, pi, s
  integer :: i, j, it
!HPF$ PROCESSORS PRC(4)
!HPF$ TEMPLATE TEMP(n)
!HPF$ DISTRIBUTE TEMP(BLOCK) ONTO PRC
!HPF$ ALIGN A(*, j) WITH TEMP(j)
!HPF$ ALIGN B(*, j) WITH TEMP(j)
!HPF$ ALIGN C(*, j) WITH TEMP(j)
!HPF$ ALIGN D(*, j) WITH TEMP(j)

  pi = 4.0d0*atan(1.0d0)
  ! C: fixed boundary values on the edges of the grid, zero inside
  c = 0.0d0
  forall (i = 1:n) c(i, 1) = 1.0d0 - 0.5d0*dble(i - 1)/dble(n - 1)
  forall (i = 1:n) c(i, n) = 1.0d0 - 0.5d0*dble(i - 1)/dble(n - 1)            &
                           + 0.25d0*sin(pi*dble(i - 1)/dble(n - 1))
  forall (j = 1:n) c(1, j) = 1.0d0
  forall (j = 1:n) c(n, j) = 0.5d0 + 0.5d0*sin(pi*dble(j - 1)/dble(n - 1))
  a = c
  b = c

  ! Jacobi iterations: B from the four neighbours of A, D the change
  do it = 1, maxit
    forall (i = 2:n - 1, j = 2:n - 1)                                        &
      b(i, j) = 0.25d0*(a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))
    d = abs(b - a)
    err = maxval(d)
    a = b
    if (err < tol) exit
  end do

  s = sum(a)
  print '(a,es22.14)', 'laplace_sb checksum ', s
end program laplace_sb
