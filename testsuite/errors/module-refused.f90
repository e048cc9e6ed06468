! expect: error: MODULE is outside the subset, at line 2 (valid Fortran, refused as outside the subset)
module constants
  implicit none
  integer, parameter :: n = 4
end module constants
program module_refused
  implicit none
  print *, 'hello'
end program module_refused
