! parity_mask.f90 -- masked FORALLs whose mask fixes the parity of the
! element written (red-black orderings: MOD(i + j, 2) == 0), reading the
! left-hand array at other indices. Where the offsets change the parity
! the reads meet only elements no iteration writes, and hpfc assigns in
! place; where they keep it (u(i-1, j-1), or an index of even coefficient)
! the FORALL's semantics need a temporary. A wrong choice changes the
! values printed. The statements marked "temporary" in a trailing comment
! must go through one, the others must not (spmd-ir.test checks both).
program spmd_parity_mask
  implicit none
  integer, parameter :: n = 14, m = 11
  real(8) :: u(n, m), v(n, m), w(n), z(n)
  integer :: i, j, it
!HPF$ PROCESSORS p(2, 2), q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE u(BLOCK, BLOCK) ONTO p
!HPF$ DISTRIBUTE v(*, CYCLIC(3)) ONTO q
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: w
!HPF$ DISTRIBUTE (CYCLIC) ONTO q :: z

  forall (i = 1:n, j = 1:m) u(i, j) = dble(mod(i*7 + j*3, 13)) + 0.25d0*dble(i)
  forall (i = 1:n, j = 1:m) v(i, j) = dble(mod(i*5 + j*11, 17)) - 0.5d0*dble(j)
  forall (i = 1:n) w(i) = dble(mod(i*i, 9))
  forall (i = 1:n) z(i) = dble(mod(3*i, 7)) + 1.0d0

  do it = 1, 3
    ! red, then black: the four neighbours have the other colour
    forall (i = 2:n - 1, j = 2:m - 1, mod(i + j, 2) == 0) &
      u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
    forall (i = 2:n - 1, j = 2:m - 1, mod(i + j, 2) == 1) &
      u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
  end do
  call show('red-black', u)

  ! a diagonal neighbour has the same colour
  forall (i = 2:n - 1, j = 2:m - 1, mod(i + j, 2) == 0) &
    u(i, j) = u(i - 1, j - 1) + 0.5d0*u(i + 1, j)        ! temporary
  call show('diagonal', u)

  ! only i's parity is fixed: u(i, j+1) may be written
  forall (i = 2:n - 1, j = 2:m - 1, mod(i, 2) == 1) &
    u(i, j) = u(i + 1, j) + u(i, j + 1)                  ! temporary
  call show('columns', u)
  forall (i = 2:n - 1, j = 2:m - 1, mod(i, 2) == 1) &
    u(i, j) = u(i + 1, j) - u(i - 1, j)
  call show('rows', u)

  ! the same parity spelt otherwise: /= 0, an even divisor, the constant
  ! first, a conjunct, an offset on the left-hand side
  forall (i = 2:n - 1, j = 2:m - 1, mod(i + j + 1, 2) /= 0) &
    u(i, j) = u(i, j - 1) - u(i + 1, j)
  call show('not zero', u)
  forall (i = 2:n - 1, j = 2:m - 1, 2 == mod(3*i + j, 4)) &
    u(i, j) = u(i + 1, j) + 0.125d0
  call show('mod 4', u)
  forall (i = 2:n - 1, j = 2:m - 1, u(i, j) > 3.0d0 .and. mod(i - j, 2) == 0) &
    u(i, j) = u(i, j + 1) - 1.0d0
  call show('conjunct', u)
  forall (i = 1:n - 2, j = 2:m - 1, mod(i + j, 2) == 0) &
    u(i + 1, j) = u(i, j) + u(i + 2, j)
  call show('offset lhs', u)
  ! even coefficients fix nothing of j
  forall (i = 2:n - 1, j = 2:m - 1, mod(i + 2*j, 2) == 0) &
    u(i, j) = u(i, j + 1) + 1.0d0                        ! temporary
  call show('even j', u)
  ! the right-hand side reads the mask's own parity: same element only
  forall (i = 2:n - 1, j = 2:m - 1, mod(i + j, 2) == 0) &
    u(i, j) = u(i, j)*0.5d0 + u(i + 1, j + 1)            ! temporary
  call show('same colour', u)

  ! a collapsed first dimension, a CYCLIC(3) second
  forall (i = 2:n - 1, j = 2:m - 1, mod(i + j, 2) == 1) &
    v(i, j) = 0.5d0*(v(i - 1, j) + v(i, j + 1))
  call show('cyclic(3)', v)

  ! one dimension: BLOCK reads through the overlap, CYCLIC through gathers
  forall (i = 2:n - 1, mod(i, 2) == 0) w(i) = w(i - 1) + w(i + 1)
  forall (i = 2:n - 1, mod(i, 2) == 1) z(i) = z(i - 1)*z(i + 1)
  print '(a, 14f8.2)', 'w', w
  print '(a, 14f8.1)', 'z', z

contains

  subroutine show(what, a)
    character(*), intent(in) :: what
    real(8), intent(in) :: a(:, :)
    print '(a12, 2f14.6, 3f10.4)', what, sum(a), sum(a(2:n - 1, 2)), a(3, 4), a(n - 1, m - 1), &
      a(2, 5)
  end subroutine show

end program spmd_parity_mask
