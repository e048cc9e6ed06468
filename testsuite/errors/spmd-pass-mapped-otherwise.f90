! expect: error: a subroutine passed actuals mapped otherwise at two calls, at line 12 (valid HPF the SPMD lowering refuses)
program pass_otherwise
  implicit none
  real(8) :: a(20), b(20)
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC)
  external :: show
  a = 1.0d0
  b = 2.0d0
  call show(a, 20)
  call show(a, 20)
  call show(b, 20)
end program pass_otherwise

subroutine show(x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  print *, sum(x)
end subroutine show
