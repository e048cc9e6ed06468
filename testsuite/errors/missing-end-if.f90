! expect: error: END IF expected (to close IF at line 6), found END PROGRAM at line 8
program missing_end_if
  implicit none
  integer :: k
  k = 3
  if (k > 2) then
    print *, 'big'
end program missing_end_if
