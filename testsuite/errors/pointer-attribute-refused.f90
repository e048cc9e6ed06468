! expect: error: POINTER attribute is outside the subset, at line 4 (valid Fortran, refused as outside the subset)
program pointer_refused
  implicit none
  real, pointer :: p(:)
  print *, 'hello'
end program pointer_refused
