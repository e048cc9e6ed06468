! A CHARACTER function that uses mapped arrays, called in an output list.
program p
  implicit none
  character(len=6), external :: label
  real(8) :: a(10)
!HPF$ DISTRIBUTE a(BLOCK)
  a = 1.0d0
  print *, 'total ', label(a)
end program p

function label(x)
  implicit none
  real(8), intent(in) :: x(10)
  character(len=6) :: label
  label = 'small'
  if (sum(x) > 5) label = 'large'
end function label
