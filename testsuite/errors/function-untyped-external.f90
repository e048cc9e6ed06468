! expect: error: an external function of the file called under IMPLICIT NONE without a type declaration, at line 6
program untyped_call
  implicit none
  integer :: a(4)
  a = 1
  write(*, '(i4)') isq(a, 4)
end program untyped_call

integer function isq(x, n)
  implicit none
  integer :: n, x(n)
  isq = sum(x)
end function isq
