! expect: error: a positional argument after a keyword argument, at line 7
program keyword_then_positional
  implicit none
  integer :: iters, lim
  lim = 5
  ! `iters /= lim` is an expression, not the keyword iters=
  call relax(maxit=0, iters/=lim)
contains
  subroutine relax(maxit, iters)
    integer, intent(in) :: maxit
    logical, intent(in) :: iters
    print *, maxit, iters
  end subroutine relax
end program keyword_then_positional
