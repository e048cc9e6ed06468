! expect: error: 'a' is aligned a second time (first ALIGN at line 7) at line 8
program aligned_twice
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(200)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I) WITH T(I)
!HPF$ ALIGN A(I) WITH T(2*I)
  a = 1.0
  print *, sum(a)
end program aligned_twice
