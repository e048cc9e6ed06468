! expect: error: a NEW variable never declared under IMPLICIT NONE, at line 7
program independent_new_undeclared
  implicit none
  real :: a(4, 4)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK, *)
!HPF$ INDEPENDENT, NEW(j)
  do i = 1, 4
    a(i, :) = real(i)
  end do
  print *, sum(a)
end program independent_new_undeclared
