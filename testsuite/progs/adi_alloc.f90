! ADI-like sweeps: the field is transposed between row and column
! distributions; allocatable work arrays are realigned with a template
program adi_sweep
  implicit none
  integer, parameter :: nx = 16, ny = 12
  real :: u(nx, ny)
  real, allocatable :: w(:), d(:)
  integer :: i, j, it
!hpf$ template tx(nx)
!hpf$ distribute tx(block)
!hpf$ dynamic u, w
!hpf$ distribute u(*, block)
!hpf$ distribute d(cyclic)
!hpf$ align w(i) with tx(i)

  allocate(w(nx), d(nx))
  forall (i = 1:nx, j = 1:ny) u(i, j) = real(mod(i + 2 * j, 8))
  d = 2.0
  do it = 1, 2
!hpf$ redistribute u(*, block)
!hpf$ realign w(i) with tx(nx + 1 - i)
    do j = 1, ny
      call sweep(u(:, j), nx)
    end do
    write(*, '(a,i2,f12.4)') 'x-sweep', it, sum(u)
!hpf$ redistribute u(block, *)
!hpf$ realign w(i) with tx(i)
    do i = 1, nx
      call sweep(u(i, :), ny)
    end do
    w = u(:, 1) + u(:, ny)
    call damp(w, d)
    write(*, '(a,i2,f12.4,f10.4)') 'y-sweep', it, sum(u), maxval(w)
  end do
  write(*, '(4f10.4)') u(1:4, 1:2)
  deallocate(w, d)

contains

  subroutine damp(x, y)
    real :: x(:), y(:)
    real :: t(size(x))
    t = x / y
    where (t > 4.0)
      x = t
    elsewhere
      x = x + y
    end where
  end subroutine damp

end program adi_sweep

subroutine sweep(v, n)
  implicit none
  integer :: n
  real :: v(n)
  real :: old(n)
  integer :: k
  old = v
  v(1) = 0.5 * (old(1) + old(2))
  do k = 2, n
    v(k) = 0.5 * (old(k) + old(k - 1))
  end do
end subroutine sweep
