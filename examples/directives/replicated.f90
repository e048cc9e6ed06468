! replicated.f90 -- replication: `*` on the right of ALIGN, and no directive.
!
! Example of an HPF directive form accepted by hpfpredict.
! T(N,N) is distributed (BLOCK, BLOCK) onto a 2 x 2 grid and the matrix A
! is aligned with it.  A `*` on the right of an ALIGN replicates:
!   ALIGN X(J) WITH T(*, J)   X(J) is held by every processor row that owns
!                             template column J (a copy per processor row);
!   ALIGN Y(I) WITH T(I, *)   Y(I) is held by every processor column that
!                             owns template row I.
! W has no mapping directive and is therefore replicated on every processor.
! Y = A*X: with X replicated along the rows, each processor multiplies its
! block locally; the row sums are then combined across processor columns.
! Checksum: sum(Y).

program dir_replicated
  implicit none
  integer, parameter :: n = 40
  real(8), dimension(n, n) :: a
  real(8), dimension(n) :: x, y, w
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, n)
!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN x(j) WITH t(*, j)
!HPF$ ALIGN y(i) WITH t(i, *)

  forall (i = 1:n, j = 1:n) a(i, j) = 1.0d0/dble(i + j - 1)
  forall (j = 1:n) x(j) = dble(j)
  forall (i = 1:n) w(i) = 1.0d0 + 0.5d0*dble(mod(i, 3))
  y = sum(a*spread(x, 1, n), dim = 2)
  y = w*y

  print '(a,es22.14)', 'replicated checksum ', sum(y)
end program dir_replicated
