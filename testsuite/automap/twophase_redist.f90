! TWOPHASE_REDIST -- twophase.f90 with u declared DYNAMIC and
! redistributed between the two phases: (BLOCK, *) for phase 1, whose
! recurrence runs along dimension 2, then REDISTRIBUTE u(*, BLOCK) for
! phase 2, whose recurrence runs along dimension 1; v, aligned with u,
! moves with it.  Both phases are then parallel and local, for the price
! of one all-to-all remapping of u and v.  Everything else is the program
! of twophase.f90, line for line.
!
! Output: the lines twophase.f90 prints, the same values.
program twophase
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 64, nsteps = 8
  real(dp), parameter :: grid = 16777216.0_dp
  real(dp) :: u(n, n), v(n, n)
  integer :: i, j, it
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ DYNAMIC u
!HPF$ DISTRIBUTE u(BLOCK, *) ONTO p
!HPF$ ALIGN v(i, j) WITH u(i, j)

  forall (i = 1:n, j = 1:n)
     u(i, j) = dble(mod(5*i + 7*j, 32)) / 32.0_dp
     v(i, j) = dble(mod(i*j, 8)) / 8.0_dp
  end forall
  write (*, '(a, 2i10)') 'twophase n, steps', n, nsteps

  ! phase 1: recurrences along the rows (over j, dimension 2)
  do it = 1, nsteps
     do j = 2, n
        u(:, j) = 0.5_dp * u(:, j) + 0.25_dp * u(:, j-1) + 0.125_dp * v(:, j) &
                  + 0.0625_dp
     end do
     do j = n - 1, 1, -1
        u(:, j) = 0.5_dp * u(:, j) + 0.25_dp * u(:, j+1) + 0.125_dp * v(:, j) &
                  + 0.0625_dp
     end do
     v = 0.75_dp * v + 0.25_dp * u
  end do
  write (*, '(a, 2es22.14)') 'phase 1: sum u, sum v', &
       sum(anint(u * grid)) / grid, sum(anint(v * grid)) / grid
  write (*, '(a, 2es22.14)') 'phase 1: u(n,n), v(1,n)', u(n, n), v(1, n)

  ! phase 2: recurrences along the columns (over i, dimension 1)
!HPF$ REDISTRIBUTE u(*, BLOCK) ONTO p
  do it = 1, nsteps
     do i = 2, n
        u(i, :) = 0.5_dp * u(i, :) + 0.25_dp * u(i-1, :) + 0.125_dp * v(i, :) &
                  + 0.0625_dp
     end do
     do i = n - 1, 1, -1
        u(i, :) = 0.5_dp * u(i, :) + 0.25_dp * u(i+1, :) + 0.125_dp * v(i, :) &
                  + 0.0625_dp
     end do
     v = 0.75_dp * v + 0.25_dp * u
  end do
  write (*, '(a, 2es22.14)') 'phase 2: sum u, sum v', &
       sum(anint(u * grid)) / grid, sum(anint(v * grid)) / grid
  write (*, '(a, 2es22.14)') 'phase 2: u(n,n), v(n,1)', u(n, n), v(n, 1)
  write (*, '(a, es22.14)') 'phase 2: max u', maxval(u)
end program twophase
