! expect: error: argument of sqrt must be real, not integer (line 5)
program t
  implicit none
  integer :: i = 4
  print *, sqrt(i)
end program t
