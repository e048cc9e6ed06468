! collapsed.f90 -- collapsed dimensions: `*` in DISTRIBUTE.
!
! Example of an HPF directive form accepted by hpfpredict.
! A `*` in a DISTRIBUTE keeps that dimension whole on every processor;
! only the other dimensions are divided.  The number of non-`*` entries
! equals the rank of the processor arrangement:
!   TEMPLATE T(N, N)       DISTRIBUTE T(*, BLOCK) ONTO P     P(4):   columns
!   TEMPLATE T3(K, K, K)   DISTRIBUTE T3(BLOCK, *, *) ONTO P P(4):   planes
!   TEMPLATE TQ(N, N)      DISTRIBUTE TQ(BLOCK, *) ONTO Q    Q(2):   rows
! Column sums of A are local (the first dimension is collapsed); the sum
! over the collapsed dimensions of C is local as well.
! Checksum: sum(CS) + sum(PS) + sum(RS).

program dir_collapsed
  implicit none
  integer, parameter :: n = 32
  integer, parameter :: k = 8
  real(8), dimension(n, n) :: a, e
  real(8), dimension(n) :: cs, rs
  real(8), dimension(k, k, k) :: c
  real(8), dimension(k) :: ps
  integer :: i, j, l
!HPF$ PROCESSORS p(4)
!HPF$ PROCESSORS q(2)
!HPF$ TEMPLATE t(n, n)
!HPF$ DISTRIBUTE t(*, BLOCK) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ TEMPLATE t3(k, k, k)
!HPF$ DISTRIBUTE t3(BLOCK, *, *) ONTO p
!HPF$ ALIGN c(i, j, l) WITH t3(i, j, l)
!HPF$ TEMPLATE tq(n, n)
!HPF$ DISTRIBUTE tq(BLOCK, *) ONTO q
!HPF$ ALIGN e(i, j) WITH tq(i, j)

  forall (i = 1:n, j = 1:n) a(i, j) = dble(i) + dble(j)/dble(n)
  cs = sum(a, dim = 1)
  forall (i = 1:k, j = 1:k, l = 1:k) c(i, j, l) = dble(i*j + l)
  ps = sum(sum(c, dim = 3), dim = 2)
  e = 2.0d0*a
  rs = sum(e, dim = 2)

  print '(a,es22.14)', 'collapsed checksum ', sum(cs) + sum(ps) + sum(rs)
end program dir_collapsed
