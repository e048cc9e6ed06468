! attributed.f90 -- the attributed (`::`) forms of DISTRIBUTE and ALIGN.
!
! Example of an HPF directive form accepted by hpfpredict.
!   DISTRIBUTE (BLOCK, BLOCK) ONTO P :: A, B   distributes A and B directly,
!                                              each by itself, with no template;
!   ALIGN (:, :) WITH T :: C, D                aligns C and D with T element
!                                              for element, as ALIGN C(I,J)
!                                              WITH T(I,J) would.
! A, B, C, D and T have the same shape, so all four are mapped alike and
! the elementwise statements below need no communication.
! Checksum: sum(D).

program dir_attributed
  implicit none
  integer, parameter :: n = 48
  real(8), dimension(n, n) :: a, b, c, d
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE t(n, n)
!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO p
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: a, b
!HPF$ ALIGN (:, :) WITH t :: c, d

  forall (i = 1:n, j = 1:n) a(i, j) = dble(i)/dble(n)
  forall (i = 1:n, j = 1:n) b(i, j) = dble(j)/dble(n)
  c = a*b + 1.0d0
  d = sqrt(c) + a

  print '(a,es22.14)', 'attributed checksum ', sum(d)
end program dir_attributed
