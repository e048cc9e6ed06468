! A mapped array in an implied DO of an output list is not lowered.
program p
  real(8), dimension(10) :: x
  integer :: i
!HPF$ DISTRIBUTE x(BLOCK)
  x = 1.0d0
  print *, (x(i), i = 1, 10)
end program p
