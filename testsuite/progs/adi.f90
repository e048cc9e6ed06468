! ADI-style alternating-direction sweep with dynamic redistribution.
! u is remapped between (BLOCK,*) and (*,BLOCK) so that each recurrence
! runs along a non-distributed dimension; v is aligned with u and follows.
program adi
  implicit none
  integer, parameter :: nx = 22, ny = 17, niter = 6
  ! power-of-two coefficients + rounding to a 2**-16 grid keep every
  ! checksum exact, hence independent of reduction order and FMA
  real(kind=8), parameter :: grid = 65536.0d0
  real(kind=8) :: u(nx, ny), v(nx, ny)
  integer :: i, j, it
!HPF$ DYNAMIC u
!HPF$ DISTRIBUTE u(BLOCK, *)
!HPF$ ALIGN v(i,j) WITH u(i,j)

  do j = 1, ny
    do i = 1, nx
      u(i, j) = finit(i, j)
    end do
  end do
  v = 0.0d0
  write (*, '(a, es22.14)') 'initial sum(u) = ', sum(u)

  do it = 1, niter
    ! x-sweep: make the first dimension local
!HPF$ REDISTRIBUTE u(*, BLOCK)
    do i = 2, nx
      u(i, :) = 0.5d0 * u(i, :) + 0.25d0 * u(i-1, :) + 0.0625d0
    end do
    u = dble(nint(u * grid)) / grid
    v = v + 0.25d0 * u
    write (*, '(a, i10, 2es22.14)') 'x-sweep', it, sum(u), maxval(u(2:nx, 2:ny))

    ! y-sweep: make the second dimension local
!HPF$ REDISTRIBUTE u(BLOCK, *)
    do j = 2, ny
      u(:, j) = 0.5d0 * u(:, j) + 0.25d0 * u(:, j-1) + relax(it) * v(:, j)
    end do
    u = dble(nint(u * grid)) / grid
    v = v - 0.125d0 * u
    write (*, '(a, i10, 2es22.14)') 'y-sweep', it, sum(u), maxval(u(2:nx, 2:ny))
    write (*, '(a, i10, 2es22.14)') 'v      ', it, sum(v), maxval(v)
  end do

  write (*, '(a, es22.14)') 'corner u(nx,ny) = ', u(nx, ny)
  write (*, '(a, es22.14)') 'dot(u(:,1),v(:,1)) = ', &
       dot_product(u(:, 1), v(:, 1))

contains

  real(kind=8) function finit(i, j)
    integer, intent(in) :: i, j
    finit = real(mod(7*i + 3*j, 11), 8) + 0.0078125d0 * real(i*j, 8)
  end function finit

  real(kind=8) function relax(k)
    integer, intent(in) :: k
    relax = 0.5d0 ** (k + 2)
  end function relax

end program adi
