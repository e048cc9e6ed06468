! expect: error: DISTRIBUTE gives 1 format but template 't' has rank 2 at line 6
program distribute_format_count
  implicit none
  real :: a(100, 100)
!HPF$ TEMPLATE T(100, 100)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I, J) WITH T(I, J)
  a = 1.0
  print *, sum(a)
end program distribute_format_count
