! expect: error: 's' calls itself through 't' but is not RECURSIVE, at line 8
program mutual_recursion_not_recursive
  implicit none
  call s(3)
contains
  subroutine s(n)
    integer, intent(in) :: n
    if (n > 0) call t(n - 1)
  end subroutine s
  recursive subroutine t(n)
    integer, intent(in) :: n
    if (n > 0) call s(n - 1)
  end subroutine t
end program mutual_recursion_not_recursive
