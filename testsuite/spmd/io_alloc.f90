! Implied-DO output of mapped arrays of bounds known at run time only:
! ALLOCATABLE ones (lower bounds 1 and -3) and a dummy passed one.
program io_alloc
  implicit none
  integer, parameter :: n = 9
  integer, allocatable :: a(:), b(:, :)
  integer :: i, j
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE b(CYCLIC, *)
  external :: show
  allocate (a(n), b(-3:n - 4, 2))
  forall (i = 1:n) a(i) = 3 * i
  forall (i = -3:n - 4, j = 1:2) b(i, j) = i * j
  write (*, '(9i4)') (a(i), i = 1, n)
  write (*, '(9i4)') ((b(i, j), i = -3, n - 4), j = 1, 2)
  print *, (a(i) + b(i - 4, 1), i = 2, n, 3)
  call show(a, n)
  deallocate (a, b)
end program io_alloc

subroutine show(x, m)
  implicit none
  integer, intent(in) :: m
  integer, intent(in) :: x(m)
  integer :: k
  write (*, '(9i4)') (x(k), k = m, 1, -1)
end subroutine show
