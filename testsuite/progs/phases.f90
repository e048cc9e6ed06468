! Three computational phases on arrays aligned to a DYNAMIC template.
! The template is remapped BLOCK -> CYCLIC -> CYCLIC(3) -> (conditionally)
! BLOCK; all aligned arrays (including the offset-aligned c) follow it.
! All data and coefficients are dyadic, so every checksum is exact.
program phases
  implicit none
  integer, parameter :: n = 30, nc = 29, nsteps = 3
  real(kind=8) :: a(n), b(n), c(nc)
  integer :: i, k
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DYNAMIC t
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN b(i) WITH t(i)
!HPF$ ALIGN c(i) WITH t(i+1)

  ! ---- phase 1: BLOCK ----
  do i = 1, n
    a(i) = real(i, 8) * 0.03125d0
  end do
  b = a * a + 1.0d0
  forall (i = 1:nc) c(i) = a(i+1) - a(i) + b(i+1)
  write (*, '(a)') 'phase 1 (BLOCK)'
  write (*, '(a, 3es22.14)') '  sums: ', sum(a), sum(b), sum(c)

  ! ---- phase 2: CYCLIC ----
!HPF$ REDISTRIBUTE t(CYCLIC) ONTO p
  forall (i = 1:n, a(i) > 0.5d0) b(i) = b(i) + 2.0d0 * a(i)
  a = a + 0.5d0 * cshift(b, 1)
  c = c + 0.125d0 * cshift(c, -2)
  write (*, '(a)') 'phase 2 (CYCLIC)'
  write (*, '(a, 3es22.14)') '  sums: ', sum(a), sum(b), sum(c)
  write (*, '(a, 2es22.14)') '  maxs: ', maxval(a), maxval(c)

  ! ---- phase 3: CYCLIC(3), back to BLOCK at k == 2 ----
!HPF$ REDISTRIBUTE t(CYCLIC(3))
  write (*, '(a)') 'phase 3 (CYCLIC(3) / BLOCK)'
  do k = 1, nsteps
    if (k == 2) then
!HPF$ REDISTRIBUTE t(BLOCK) ONTO p
      b = 0.5d0 * b
    end if
    do i = 1, nc
      if (b(i) > 1.5d0) then
        c(i) = c(i) + weight(k) * (a(i+1) - b(i))
      else
        c(i) = c(i) - weight(k) * a(i)
      end if
    end do
    a = a + 0.125d0 * b
    write (*, '(a, i10, 3es22.14)') '  step', k, sum(a), sum(c), maxval(b)
  end do
  write (*, '(a, es22.14)') 'dot(a,b) = ', dot_product(a, b)

contains

  real(kind=8) function weight(k)
    integer, intent(in) :: k
    weight = 0.5d0 ** k
  end function weight

end program phases
