! expect: error: derived TYPE definition is outside the subset, at line 4 (valid Fortran, refused as outside the subset)
program derived_type_refused
  implicit none
  type point
    real :: x, y
  end type point
  print *, 'hello'
end program derived_type_refused
