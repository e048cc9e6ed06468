! Remapping on every kind of path: EXIT and CYCLE out of a loop that
! changed the mapping, an IF whose branches (ELSE included) agree, a
! REDISTRIBUTE to the mapping held, the attributed form with two names, a
! subroutine that remaps its own arrays and is called twice.
program dynamic_paths
  implicit none
  integer, parameter :: n = 19
  integer :: a(n), b(n), c(n)
  integer :: i, k, s
!HPF$ PROCESSORS p(3)
!HPF$ DYNAMIC a, b, c
!HPF$ DISTRIBUTE a(BLOCK) ONTO p
!HPF$ DISTRIBUTE (CYCLIC) ONTO p :: b, c
  forall (i = 1:n) a(i) = i
  b = 2 * a
  c = 0
  s = 0
  do k = 1, 5
!HPF$ REDISTRIBUTE a(CYCLIC(2)) ONTO p
    a = a + 1
    if (mod(k, 2) == 0) cycle
    s = s + sum(a)
    if (k == 5) exit
!HPF$ REDISTRIBUTE a(BLOCK) ONTO p
    c = c + a
  end do
  print *, 'loop:', s, sum(c), a(1), a(n)
  if (s > 100) then
!HPF$ REDISTRIBUTE (BLOCK) ONTO p :: b, c
    b = b + c
  else
!HPF$ REDISTRIBUTE (BLOCK) ONTO p :: b, c
    b = b - c
  end if
  print *, 'if:', sum(b), b(1), b(n)
!HPF$ REDISTRIBUTE b(BLOCK) ONTO p
  b = cshift(b, 1) + a
  print *, 'same:', sum(b), b(1), b(n)
  call phase(3)
  call phase(7)
end program dynamic_paths

subroutine phase(m)
  implicit none
  integer, intent(in) :: m
  integer, parameter :: n = 14
  real :: x(n), y(n)
  integer :: i
!HPF$ DYNAMIC x
!HPF$ DISTRIBUTE x(BLOCK)
!HPF$ ALIGN y(i) WITH x(i)
  forall (i = 1:n) x(i) = real(i * m)
  y = x / 2.0
!HPF$ REDISTRIBUTE x(CYCLIC)
  x = x + y
  print *, 'phase', m, sum(x), sum(y), x(n)
end subroutine phase
