! elem_actuals.f90 -- elements of mapped arrays as actual arguments of
! subroutines with scalar dummies: a dummy the callee assigns (the element
! is stored back on its owner), one it only reads (INTENT(IN)), and a
! counter of the caller's. Extents 10, on BLOCK and CYCLIC arrays.
program spmd_elem_actuals
  implicit none
  integer, parameter :: n = 10
  real(8) :: a(n), b(n)
  integer :: i, k
!HPF$ DISTRIBUTE (BLOCK) :: a
!HPF$ DISTRIBUTE (CYCLIC) :: b
  forall (i = 1:n) a(i) = dble(i)
  forall (i = 1:n) b(i) = dble(2*i)
  k = 0
  call scale(a(3), 10.0d0, k)
  call scale(b(n), 0.5d0, k)
  do i = 1, n, 4
    call addto(a(i), b(i))
  end do
  print '(a,2es22.14,i4)', 'elem_actuals ', sum(a), sum(b), k
contains
  subroutine scale(x, f, cnt)
    real(8) :: x
    real(8), intent(in) :: f
    integer :: cnt
    x = x*f
    cnt = cnt + 1
  end subroutine scale
  subroutine addto(x, y)
    real(8) :: x
    real(8), intent(in) :: y
    x = x + y
  end subroutine addto
end program spmd_elem_actuals
