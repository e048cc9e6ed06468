! A mapped array cannot be passed to a procedure as a whole.
program p
  real(8), dimension(20) :: a
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0d0
  call show(a)
contains
  subroutine show(x)
    real(8), dimension(:) :: x
    print *, x(1)
  end subroutine show
end program p
