! expect: error: DATA for a mapped array, at line 6 (valid HPF the subset refuses)
program data_mapped
  implicit none
  real :: a(4)
!HPF$ DISTRIBUTE a(BLOCK)
  data a /4*1.0/
  print *, sum(a)
end program data_mapped
