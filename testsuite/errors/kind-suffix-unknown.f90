! expect: error: kind parameter 'wp' in '1.5_wp' must be an integer named constant equal to 4 or 8 at line 6
program kind_suffix_unknown
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: x
  x = 1.5_wp
  print *, x
end program kind_suffix_unknown
