! where_forall.f90 -- FORALL with a mask, the FORALL construct, and the
! WHERE / ELSEWHERE construct.
!
! Example of statement forms accepted by hpfpredict (HPF / Fortran 90D).
!   FORALL (I = 1:N, J = 1:N, I /= J) ...    assigns only where the mask holds
!   FORALL ... END FORALL                    two assignments: every right-hand
!                                            side of the first is evaluated
!                                            before any element is stored, and
!                                            the second sees the first's result
!   WHERE ... ELSEWHERE ... END WHERE        masked array assignment
! All arrays are aligned with T(N,N), distributed (BLOCK, *) onto 4
! processors.
! Checksum: sum(A) + sum(B) + sum(C).

program dir_where_forall
  implicit none
  integer, parameter :: n = 32
  real(8), dimension(n, n) :: a, b, c
  integer :: i, j
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n, n)
!HPF$ DISTRIBUTE t(BLOCK, *) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN b(i, j) WITH t(i, j)
!HPF$ ALIGN c(i, j) WITH t(i, j)

  ! FORALL statement with a mask: the diagonal is left alone
  a = 1.0d0
  forall (i = 1:n, j = 1:n, i /= j) a(i, j) = 1.0d0/dble(abs(i - j))

  ! FORALL construct with two assignments; the first reads the old A(i+1,j)
  b = 0.0d0
  forall (i = 1:n - 1, j = 1:n)
    a(i, j) = 0.5d0*(a(i, j) + a(i + 1, j))
    b(i, j) = a(i, j) + dble(j)
  end forall

  ! WHERE construct with ELSEWHERE
  where (b > 10.0d0)
    c = sqrt(b)
  elsewhere
    c = b*b
  end where

  print '(a,es22.14)', 'where_forall checksum ', sum(a) + sum(b) + sum(c)
end program dir_where_forall
