! expect: error: END DO expected (to close DO at line 5), found END PROGRAM at line 8
program missing_end_do
  implicit none
  integer :: i
  do i = 1, 3
    print *, i
  print *, 'done'
end program missing_end_do
