! expect: error: GOTO 10 jumps into a block (a DO loop, IF or SELECT CASE construct the GOTO is not in), which Fortran forbids at line 6
program goto_into_do
  implicit none
  integer :: i, k
  k = 0
  goto 10
  do i = 1, 3
10   k = k + i
  end do
  print *, k
end program goto_into_do
