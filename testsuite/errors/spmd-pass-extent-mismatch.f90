! expect: error: a dummy of another extent than its mapped actual, at line 16 (valid HPF the SPMD lowering refuses)
program pass_extent
  implicit none
  real(8) :: a(20)
!HPF$ DISTRIBUTE a(BLOCK)
  external :: half
  a = 1.0d0
  call half(a)
  print *, sum(a)
end program pass_extent

subroutine half(x)
  implicit none
  real(8), intent(inout) :: x(10)
  x = 0.5d0 * x
end subroutine half
