! An ADI sweep subroutine called in both phases of a REDISTRIBUTE: a clone
! per phase, so each sweep runs along the local dimension.
program adisub
  implicit none
  integer, parameter :: n = 14, m = 11
  real(8) :: u(n, m)
  integer :: i, j, it
!HPF$ DYNAMIC u
!HPF$ DISTRIBUTE u(BLOCK, *)
  forall (i = 1:n, j = 1:m) u(i, j) = real(mod(i * j, 7), 8)
  do it = 1, 3
    call rows(u, n, m)
!HPF$ REDISTRIBUTE u(*, BLOCK)
    call cols(u, n, m)
    call rows(u, n, m)
!HPF$ REDISTRIBUTE u(BLOCK, *)
    print *, it, sum(u), u(n, m)
  end do
end program adisub

subroutine rows(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n, m)
  integer :: j
  do j = 2, m
    a(:, j) = 0.5d0 * (a(:, j) + a(:, j - 1))
  end do
end subroutine rows

subroutine cols(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n, m)
  integer :: i
  do i = 2, n
    a(i, :) = 0.5d0 * (a(i, :) + a(i - 1, :))
  end do
end subroutine cols
