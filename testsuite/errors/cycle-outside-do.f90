! expect: error: CYCLE outside a DO loop at line 6
program cycle_outside_do
  implicit none
  integer :: k
  k = 1
  if (k > 0) cycle
  print *, k
end program cycle_outside_do
