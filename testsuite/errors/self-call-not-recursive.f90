! expect: error: a subroutine calling itself without RECURSIVE, at line 11
program self_call_not_recursive
  implicit none
  integer :: k
  k = 3
  call down(k)
contains
  subroutine down(k)
    integer, intent(inout) :: k
    if (k > 0) k = k - 1
    if (k > 0) call down(k)
  end subroutine down
end program self_call_not_recursive
