! expect: error: END DO expected (to close DO at line 5), found END IF at line 7
program end_if_closes_do
  implicit none
  integer :: i
  do i = 1, 3
    print *, i
  end if
end program end_if_closes_do
