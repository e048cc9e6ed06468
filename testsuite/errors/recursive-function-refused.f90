! expect: error: RECURSIVE procedure is outside the subset, at line 6 (valid Fortran, refused as outside the subset)
program recursive_refused
  implicit none
  print *, twice(3)
contains
  recursive integer function twice(n)
    integer, intent(in) :: n
    twice = 2 * n
  end function twice
end program recursive_refused
