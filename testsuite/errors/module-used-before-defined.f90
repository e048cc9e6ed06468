! expect: error: a USE of a module defined later in the file, at line 3 (gfortran needs the module first too)
program module_used_before_defined
  use later
  implicit none
  print *, k
end program module_used_before_defined
module later
  implicit none
  integer, parameter :: k = 3
end module later
