! An internal subroutine given a mapped array whole, then a section of it:
! the section goes as a replicated copy, to a clone of the subroutine
! compiled for a dummy that is not mapped.
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
