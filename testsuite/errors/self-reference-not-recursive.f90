! expect: error: a function referencing itself without RECURSIVE, at line 9
program self_reference_not_recursive
  implicit none
  print *, f(3)
contains
  integer function f(k) result(r)
    integer, intent(in) :: k
    r = 1
    if (k > 1) r = k * f(k - 1)
  end function f
end program self_reference_not_recursive
