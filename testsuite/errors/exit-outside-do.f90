! expect: error: EXIT outside a DO loop at line 7
program exit_outside_do
  implicit none
  integer :: k
  k = 1
  if (k > 0) then
    exit
  end if
  print *, k
end program exit_outside_do
