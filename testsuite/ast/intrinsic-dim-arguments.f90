program t
  implicit none
  real :: b(4, 5)
  integer :: i
  b = 1.0
  i = size(b, dim=1) + size(b, 2) + lbound(b, 1)
  print *, i, maxloc(b, dim=1)
  call s(b, 4)
contains
  subroutine s(a, n)
    real :: a(n, *)
    integer :: n
    print *, a(1, 1)
  end subroutine s
end program t
