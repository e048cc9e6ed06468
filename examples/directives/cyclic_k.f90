! cyclic_k.f90 -- the CYCLIC(k) (block-cyclic) distribution.
!
! Example of an HPF directive form accepted by hpfpredict.
! TEMPLATE T(N) distributed CYCLIC(8) onto 4 processors: blocks of 8
! consecutive elements are dealt round-robin, so processor 1 owns
! T(1:8), T(33:40), T(65:72), T(97:100), processor 2 owns T(9:16), ...
! The 2-D array G is distributed CYCLIC(3) along its second dimension only.
! A stencil on U needs neighbours at every block edge; G is summed by rows.
! Checksum: sum(V) + sum(R).

program dir_cyclic_k
  implicit none
  integer, parameter :: n = 100
  integer, parameter :: m = 20
  real(8), dimension(n) :: u, v
  real(8), dimension(m, m) :: g
  real(8), dimension(m) :: r
  integer :: i, j
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(CYCLIC(8)) ONTO p
!HPF$ ALIGN u(i) WITH t(i)
!HPF$ ALIGN v(i) WITH t(i)
!HPF$ TEMPLATE t2(m, m)
!HPF$ DISTRIBUTE t2(*, CYCLIC(3)) ONTO p
!HPF$ ALIGN g(i, j) WITH t2(i, j)

  forall (i = 1:n) u(i) = sqrt(dble(i))
  v = u
  v(2:n - 1) = u(2:n - 1) + 0.5d0*(u(1:n - 2) + u(3:n))
  forall (i = 1:m, j = 1:m) g(i, j) = dble(i) + 0.1d0*dble(j)
  r = sum(g, dim = 2)

  print '(a,es22.14)', 'cyclic_k checksum ', sum(v) + sum(r)
end program dir_cyclic_k
