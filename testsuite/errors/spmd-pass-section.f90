! expect: error: a section of a mapped array passed to a dummy that takes mapped arrays whole at other calls, at line 9 (valid HPF the SPMD lowering refuses)
program pass_section
  implicit none
  real(8) :: a(20)
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0d0
  call show(a)
  call show(a)
  call show(a(1:10))
contains
  subroutine show(x)
    real(8), intent(in) :: x(:)
    print *, sum(x)
  end subroutine show
end program pass_section
