! TWOPHASE -- two phases of line recurrences on one field, the shape of
! the split (fractional-step) solvers of the time, run one direction after
! the other: first nsteps sweeps along the rows (the recurrences run over
! j, dimension 2, for all rows i at once), then nsteps sweeps along the
! columns (over i, dimension 1, for all columns at once).  A sweep is a
! forward and a backward damped first-order recurrence driven by v and a
! constant source, as the two passes of a line solve are, and ends with
! a relaxation of v towards u.  Every value stays in [0, 1].
!
! Mapping as written: u (BLOCK, *) onto p, v aligned with it, for the
! whole run.  Phase 1 is then parallel and local (each processor runs
! the recurrences over its own rows); in phase 2 row i needs row i-1
! (row i+1 going back), so each pass travels from processor to processor
! and, the backward pass returning to where the next forward one starts,
! only one processor works at a time.  (*, BLOCK) is the other way
! round.  The best is (BLOCK, *) for phase 1 and (*, BLOCK) for phase 2:
! twophase_redist.f90 redistributes between the phases.
!
! Output: after each phase, checksums of u and v (rounded to a 2**-24
! grid, so the sums are exact in any order) and a few values.
program twophase
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 64, nsteps = 8
  real(dp), parameter :: grid = 16777216.0_dp
  real(dp) :: u(n, n), v(n, n)
  integer :: i, j, it
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
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
