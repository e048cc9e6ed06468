! A mapped array must have explicit bounds known at the start of its unit.
program p
  real(8), allocatable :: a(:)
!HPF$ DISTRIBUTE a(BLOCK)
  allocate(a(10))
  a = 1.0d0
  print *, sum(a)
end program p
