! goto_back.f90 - backward jumps that do not make a DO loop of their
! own: an arithmetic IF and a computed GOTO jumping back, a loop whose
! EXIT leaves the DO loop around it, a GOTO from outside into the middle
! of a loop, with distributed data updated inside them.
program goto_back
  implicit none
  integer, parameter :: n = 40
  real :: a(n)
  integer :: i, k, m, total, sel
!hpf$ distribute a(cyclic)
  a = 1.0
  k = 0
10 k = k + 1
  a(k) = a(k) + k
  if (k - 5) 10, 20, 20
20 print *, 'arithmetic IF back:', k, sum(a)
  total = 0
  do i = 1, 3
     m = 0
30   m = m + 1
     if (m > 4 * i) exit
     total = total + m
     if (m < 6) goto 30
  end do
  print *, 'exit from the loop around:', i, m, total
  sel = 0
  k = 0
  goto 45
40 k = k + 2
45 k = k + 1
  sel = sel + 1
  a(k) = -a(k)
  go to (40, 40, 50) sel
50 print *, 'computed GOTO back:', k, sel, count(a < 0.0)
end program goto_back
