! expect: error: DISTRIBUTE of 't', which is neither a declared TEMPLATE nor an array, at line 5
program distribute_undeclared
  implicit none
  real :: a(100)
!HPF$ DISTRIBUTE T(BLOCK)
  a = 1.0
  print *, sum(a)
end program distribute_undeclared
