! cyclic.f90 -- the CYCLIC distribution.
!
! Example of an HPF directive form accepted by hpfpredict.
! TEMPLATE T(N) distributed CYCLIC onto 4 processors: element i lives on
! processor mod(i-1, 4) + 1, so consecutive elements are on different
! processors.  A triangular workload (element i costs i steps) is balanced
! well by CYCLIC, where BLOCK would leave the last processor the most work.
! Checksum: sum(Y).

program dir_cyclic
  implicit none
  integer, parameter :: n = 100
  real(8), dimension(n) :: x, y
  integer :: i, k
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(CYCLIC) ONTO p
!HPF$ ALIGN x(i) WITH t(i)
!HPF$ ALIGN y(i) WITH t(i)

  forall (i = 1:n) x(i) = 1.0d0/dble(i)
  y = 0.0d0
  do k = 1, n
    ! only the elements i >= k take part in step k
    forall (i = k:n) y(i) = y(i) + x(i)*dble(k)
  end do

  print '(a,es22.14)', 'cyclic checksum ', sum(y)
end program dir_cyclic
