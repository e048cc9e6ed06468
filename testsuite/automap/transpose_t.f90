! TRANSPOSE_T -- transpose.f90 with the tracer b aligned transposed with
! the template, b(i, j) WITH t(j, i): b(k, i) then lives where a(i, k)
! does.  Everything else is the program of transpose.f90, line for line.
!
! Mapping: t (BLOCK, *) onto p, a aligned with t, b aligned with t
! transposed.  a's dimension 1 and b's dimension 2 are distributed, so
! both exchanges (a(j, i) into b(i, j) and back) read local elements and
! both diffusions run along undistributed dimensions: no communication
! in the time loop.  transpose.f90 aligns b(i, j) WITH t(i, j).
!
! Output: the lines transpose.f90 prints, the same values.
program transp
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 64, nsteps = 20
  real(dp), parameter :: grid = 16777216.0_dp
  real(dp) :: a(n, n), b(n, n)
  integer :: i, j, it
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE t(n, n)
!HPF$ DISTRIBUTE t(BLOCK, *) ONTO p
!HPF$ ALIGN a(i, j) WITH t(i, j)
!HPF$ ALIGN b(i, j) WITH t(j, i)

  ! a warm layer in the middle of the column, tilted with i; no tracer
  forall (i = 1:n, j = 1:n)
     a(i, j) = dble(mod(i + 3*j, 16)) / 16.0_dp
  end forall
  b = 0.0_dp

  do it = 1, nsteps
     ! vertical diffusion of a (dimension 2), ends held
     forall (i = 1:n, j = 2:n-1)
        a(i, j) = 0.25_dp * a(i, j-1) + 0.5_dp * a(i, j) + 0.25_dp * a(i, j+1)
     end forall
     ! the tracer grows with the temperature: a transposed read
     forall (i = 1:n, j = 1:n)
        b(i, j) = 0.5_dp * b(i, j) + 2.0_dp * a(j, i) * (1.0_dp - a(j, i))
     end forall
     ! vertical diffusion of b (dimension 1), ends held
     forall (i = 2:n-1, j = 1:n)
        b(i, j) = 0.25_dp * b(i-1, j) + 0.5_dp * b(i, j) + 0.25_dp * b(i+1, j)
     end forall
     ! the temperature relaxes towards the tracer: transposed again
     forall (i = 1:n, j = 1:n)
        a(i, j) = 0.75_dp * a(i, j) + 0.25_dp * b(j, i)
     end forall
  end do

  write (*, '(a, 2i10)') 'transpose n, steps', n, nsteps
  write (*, '(a, es22.14)') 'sum a        ', sum(anint(a * grid)) / grid
  write (*, '(a, es22.14)') 'sum b        ', sum(anint(b * grid)) / grid
  write (*, '(a, es22.14)') 'sum a - b**T ', &
       sum(anint(a * grid) - anint(transpose(b) * grid)) / grid
  write (*, '(a, 2es22.14)') 'max a, max b ', maxval(a), maxval(b)
  write (*, '(a, 3es22.14)') 'a(1,n/2), b(n/2,1), a(n/2,n/4)', a(1, n/2), &
       b(n/2, 1), a(n/2, n/4)
end program transp
