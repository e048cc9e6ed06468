! block.f90 -- the BLOCK distribution.
!
! Example of an HPF directive form accepted by hpfpredict.
! TEMPLATE T(N) distributed BLOCK onto 4 processors: with N = 100 the
! block size is ceil(100/4) = 25, so processor k owns T(25k-24 : 25k).
! A and B are aligned with T; W is distributed BLOCK directly, without a
! template.  B takes a three-point average of A (neighbour communication
! at the block edges), W a scaled copy of B.
! Checksum: sum(B) + sum(W).

program dir_block
  implicit none
  integer, parameter :: n = 100
  real(8), dimension(n) :: a, b, w
  integer :: i
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN b(i) WITH t(i)
!HPF$ DISTRIBUTE w(BLOCK) ONTO p

  forall (i = 1:n) a(i) = 1.0d0 + dble(i)/dble(n)
  b(1) = a(1)
  b(n) = a(n)
  b(2:n - 1) = (a(1:n - 2) + 2.0d0*a(2:n - 1) + a(3:n))/4.0d0
  w = 0.5d0*b

  print '(a,es22.14)', 'block checksum ', sum(b) + sum(w)
end program dir_block
