! expect: error: unknown HPF directive 'DISTRIBUT' at line 6 (an error, not silently ignored)
program unknown_directive
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(100)
!HPF$ DISTRIBUT T(BLOCK)
!HPF$ ALIGN A(I) WITH T(I)
  a = 1.0
  print *, sum(a)
end program unknown_directive
