! block_k.f90 -- the BLOCK(k) distribution.
!
! Example of an HPF directive form accepted by hpfpredict.
! BLOCK(k) gives each processor k consecutive elements, and HPF requires
! k*P >= N.  Here TEMPLATE T(N), N = 100, is distributed BLOCK(30) onto 4
! processors (30*4 = 120 >= 100): processors 1-3 own 30 elements each,
! processor 4 only the last 10.  The 2-D template T2(M,M), M = 24, is
! distributed (BLOCK(12), BLOCK(12)) onto a 2 x 2 grid (12*2 = 24).
! Checksum: sum(Y) + sum(H).

program dir_block_k
  implicit none
  integer, parameter :: n = 100
  integer, parameter :: m = 24
  real(8), dimension(n) :: x, y
  real(8), dimension(m, m) :: h
  integer :: i, j
!HPF$ PROCESSORS p(4)
!HPF$ PROCESSORS q(2, 2)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK(30)) ONTO p
!HPF$ ALIGN x(i) WITH t(i)
!HPF$ ALIGN y(i) WITH t(i)
!HPF$ TEMPLATE t2(m, m)
!HPF$ DISTRIBUTE t2(BLOCK(12), BLOCK(12)) ONTO q
!HPF$ ALIGN h(i, j) WITH t2(i, j)

  forall (i = 1:n) x(i) = 1.0d0 + 0.01d0*dble(i)
  y = x*x
  y(1:n - 1) = y(1:n - 1) + x(2:n)
  forall (i = 1:m, j = 1:m) h(i, j) = 1.0d0/dble(i + j)
  h = h + transpose(h)

  print '(a,es22.14)', 'block_k checksum ', sum(y) + sum(h)
end program dir_block_k
