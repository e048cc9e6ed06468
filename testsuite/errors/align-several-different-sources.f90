! expect: error: ALIGN with several alignees needs the same source list for each at line 9
program align_several
  implicit none
  integer, parameter :: n = 16
  real :: a(n), b(n, n)
  integer :: i
!HPF$ TEMPLATE T(N)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN A(I), B(I, *) WITH T(I)
  forall (i = 1:n) a(i) = real(i)
  b = 1.0
  print *, sum(a), sum(b)
end program align_several
