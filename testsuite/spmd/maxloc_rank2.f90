! MAXLOC and MINLOC without DIM= of rank-2 and rank-3 arrays (BLOCK, CYCLIC)
! and (CYCLIC, BLOCK, *) onto p(2,2): in an assignment, in output lists,
! with MASK=, of a section; ties go to the first in array element order;
! MAXLOC of a rank-1 column varying with the FORALL's index (inline).
program ml
  implicit none
  integer, parameter :: n = 13, m = 7
  real :: a(n, m), b(n, m, 3)
  real :: x(16, 3)
  integer :: loc2(2), loc3(3), l(1, 3), i, j, k
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE a(BLOCK, CYCLIC) ONTO p
!HPF$ DISTRIBUTE b(CYCLIC, BLOCK, *) ONTO p
!HPF$ DISTRIBUTE x(BLOCK, *)
  forall (i = 1:n, j = 1:m) a(i, j) = real(mod(i * 5 + j * 3, 11))
  forall (i = 1:n, j = 1:m, k = 1:3) b(i, j, k) = real(mod(i * j + k, 9))
  loc2 = maxloc(a)
  print *, loc2, minloc(a)
  loc3 = minloc(b)
  print *, loc3, maxloc(b), maxloc(a, mask=a < 5.0)
  print *, maxloc(a(2:n, :))
  forall (i = 1:16, k = 1:3) x(i, k) = real(mod(7*i + 5*k, 16))
  forall (k = 1:3) l(:, k) = maxloc(x(:, k))
  print *, l
end program ml
