! expect: error: ALIGN target 'u' is neither a declared TEMPLATE nor an array at line 7
program align_unknown_template
  implicit none
  real :: a(100)
!HPF$ TEMPLATE T(100)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I) WITH U(I)
  a = 1.0
  print *, sum(a)
end program align_unknown_template
