! Internal procedures working on the host's arrays, called on both sides
! of a REDISTRIBUTE (and one calling another): each has a copy compiled
! for the mapping the host's arrays hold at the call.
program dynamic_host
  implicit none
  integer, parameter :: n = 12, m = 9
  real(8) :: u(n, m), v(n, m)
  integer :: i, j, it
!HPF$ DYNAMIC u
!HPF$ DISTRIBUTE u(BLOCK, *)
!HPF$ ALIGN v(i, j) WITH u(i, j)
  forall (i = 1:n, j = 1:m) u(i, j) = real(mod(i + 2 * j, 5), 8)
  v = 0.0d0
  do it = 1, 2
    call sweep_rows()
!HPF$ REDISTRIBUTE u(*, BLOCK)
    call sweep_cols()
    call both()
!HPF$ REDISTRIBUTE u(BLOCK, *)
    call both()
    print *, it, sum(u), sum(v)
  end do
contains
  subroutine sweep_rows()
    integer :: jj
    do jj = 2, m
      u(:, jj) = 0.5d0 * (u(:, jj) + u(:, jj - 1))
    end do
  end subroutine sweep_rows
  subroutine sweep_cols()
    integer :: ii
    do ii = 2, n
      u(ii, :) = 0.5d0 * (u(ii, :) + u(ii - 1, :))
    end do
  end subroutine sweep_cols
  subroutine both()
    call accumulate()
  end subroutine both
  subroutine accumulate()
    v = v + u
  end subroutine accumulate
end program dynamic_host
