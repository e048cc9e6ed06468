! expect: error: a section of a mapped array passed to a function that assigns its dummy, at line 9 (valid HPF the SPMD lowering refuses)
program copy_assigned
  implicit none
  real(8) :: a(20), s
  real(8), external :: bump
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0d0
  s = 0.0d0
  s = s + bump(a(1:10), 10)
  print *, s, sum(a)
end program copy_assigned

real(8) function bump(x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  x = x + 1.0d0
  bump = sum(x)
end function bump
