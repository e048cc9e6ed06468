! expect: error: GOTO 20 jumps into a block (a DO loop, IF or SELECT CASE construct the GOTO is not in), which Fortran forbids at line 9
program goto_into_if
  implicit none
  integer :: k
  k = 3
  if (k > 2) then
20   k = k - 1
  end if
  if (k > 0) goto 20
  print *, k
end program goto_into_if
