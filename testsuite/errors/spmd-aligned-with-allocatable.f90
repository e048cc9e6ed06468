! expect: error: an array of fixed bounds aligned with an ALLOCATABLE one, at line 5 (valid HPF the SPMD lowering refuses)
program aligned_alloc
  implicit none
  real(8), allocatable :: a(:)
  real(8) :: b(10)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  allocate(a(10))
  a = 1.0d0
  b = 2.0d0
  print *, sum(a) + sum(b)
end program aligned_alloc
