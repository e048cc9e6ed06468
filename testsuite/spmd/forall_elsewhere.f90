! WHERE with ELSEWHERE (mask) and ELSEWHERE inside a FORALL construct, on
! rows of a (BLOCK, *) matrix, a vector aligned with its rows read in the
! last branch: each assignment under its mask and the negation of those
! before it.
program wf
  implicit none
  integer, parameter :: n = 11
  real :: a(n, n), b(n, n), c(n)
  integer :: i, j
!HPF$ DISTRIBUTE a(BLOCK, *)
!HPF$ ALIGN b(i, j) WITH a(i, j)
!HPF$ ALIGN c(i) WITH a(i, *)
  forall (i = 1:n, j = 1:n) a(i, j) = real(mod(i * j, 7)) - 3.0
  b = 0.0
  c = 1.0
  forall (i = 1:n)
    where (a(i, :) > 0.0)
      b(i, :) = a(i, :) * 2.0
    elsewhere (a(i, :) < -1.0)
      b(i, :) = -1.0
    elsewhere
      b(i, :) = c(i) + 0.5
    end where
  end forall
  print *, sum(b), b(2, 3), b(n, n)
end program wf
