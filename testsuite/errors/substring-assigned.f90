! expect: error: an assignment to a substring, at line 5 (valid Fortran, refused as outside the subset)
program substring_assigned
  implicit none
  character(len=8) :: s
  s(1:3) = 'abc'
  print *, s
end program substring_assigned
