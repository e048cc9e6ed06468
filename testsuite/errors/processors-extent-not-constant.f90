! expect: error: extent of PROCESSORS 'p' is not a constant expression ('n' is a variable) at line 6
program processors_variable_extent
  implicit none
  integer :: n
  real :: a(100)
!HPF$ PROCESSORS P(N)
  n = 4
  a = 1.0
  print *, sum(a), n
end program processors_variable_extent
