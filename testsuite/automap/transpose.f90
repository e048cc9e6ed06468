! TRANSPOSE -- two coupled fields, one of them kept in transposed storage,
! as in the column-physics codes of the time where a second module (here
! the "tracer" b) holds its field with the vertical index first, so that
! its own loops run down contiguous columns.  Both fields diffuse along
! the vertical only: a (temperature) along its dimension 2, b (tracer,
! b(k, i) is the value at a(i, k)) along its dimension 1.  Each step they
! exchange through the transposed references a(j, i) and b(j, i): the
! tracer grows logistically with the temperature, and the temperature is
! relaxed towards the tracer.  Every value stays in [0, 1].
!
! Mapping as written: the template t (BLOCK, *) onto p, a and b both
! aligned with it identically, so each exchange is a full transpose
! (every processor sends to every other) and b's diffusion along its
! distributed dimension needs the neighbours' boundary rows.  Aligning
! b transposed, b(i, j) WITH t(j, i), makes both exchanges and both
! diffusions local: that is transpose_t.f90, the same program.
!
! Output: checksums of a and b (the fields rounded to a 2**-24 grid, so
! the sums are exact in any order), maxima and a few values.
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
!HPF$ ALIGN b(i, j) WITH t(i, j)

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
