! independent.f90 -- the INDEPENDENT directive before DO loops.
!
! Example of an HPF directive form accepted by hpfpredict.
! INDEPENDENT asserts that the iterations of the next DO loop do not
! interfere, so the loop may be run like a FORALL: each processor does the
! iterations whose left-hand sides it owns.  NEW(J) says that J is private
! to each iteration (the inner loop's index), so its reuse by every
! iteration is no dependence.
! Checksum: sum(B) + sum(C).

program dir_independent
  implicit none
  integer, parameter :: n = 64
  integer, parameter :: m = 16
  real(8), dimension(n) :: a, b
  real(8), dimension(n, m) :: c
  integer :: i, j
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN b(i) WITH t(i)
!HPF$ ALIGN c(i, *) WITH t(i)

  forall (i = 1:n) a(i) = 1.0d0 + 0.5d0*sin(dble(i))

!HPF$ INDEPENDENT
  do i = 1, n
    b(i) = 2.0d0*a(i) + 1.0d0
  end do

!HPF$ INDEPENDENT, NEW(j)
  do i = 1, n
    do j = 1, m
      c(i, j) = a(i)*dble(j) + b(i)
    end do
  end do

  print '(a,es22.14)', 'independent checksum ', sum(b) + sum(c)
end program dir_independent
