! expect: error: 'a' is both aligned (ALIGN at line 7) and distributed at line 8; an aligned array may not be distributed
program aligned_and_distributed
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(100)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I) WITH T(I)
!HPF$ DISTRIBUTE A(CYCLIC)
  a = 1.0
  print *, sum(a)
end program aligned_and_distributed
