! A function given arrays mapped two ways (BLOCK, CYCLIC): hpfc compiles it
! once per mapping (a clone for the second), and each reference calls the
! one compiled for the array it passes.
program pass_otherwise
  implicit none
  real(8) :: a(20), b(20), s
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC)
  real(8), external :: total
  a = 1.0d0
  b = 2.0d0
  s = total(a, 20)
  s = s + total(a, 20)
  print *, s
  s = s + total(b, 20)
  print *, s
end program pass_otherwise

real(8) function total(x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  total = sum(x)
end function total
