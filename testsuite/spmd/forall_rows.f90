! forall_rows.f90 - array assignments that read the left-hand array: a
! temporary only where an element read can be one written (the same row
! shifted or reversed); none where the rows (columns) differ by constant
! subscripts or the element read is the one written.
program forall_rows
  implicit none
  integer, parameter :: n = 12, r2 = 2
  real(8) :: a(4, n), b(n, 4), c(3, n)
  integer :: i, j, k
!HPF$ DISTRIBUTE a(*, BLOCK)
!HPF$ DISTRIBUTE b(BLOCK, *)
!HPF$ DISTRIBUTE c(*, CYCLIC(2))
  forall (i = 1:4, j = 1:n) a(i, j) = dble(10*i + j)
  forall (i = 1:n, j = 1:4) b(i, j) = dble(i - 3*j)
  forall (i = 1:3, j = 1:n) c(i, j) = dble(i*j)
  ! other rows: no temporary
  a(1, :) = a(2, :) + 0.5d0*a(3, :) + a(4, :)
  a(r2, :) = a(1, :) - a(3, :)
  ! the element itself: no temporary
  a(3, :) = 2.0d0*a(3, :) + a(1, :)
  ! the same row, shifted and reversed: a temporary
  a(4, 2:n) = a(4, 1:n - 1) + a(1, 2:n)
  forall (j = 1:n) a(2, j) = a(2, n + 1 - j) + a(3, j)
  ! a row known only at run time: a temporary
  k = 1
  a(k, :) = a(1, n:1:-1) + a(4, :)
  ! columns of a (BLOCK, *) array
  b(:, 1) = b(:, 4) - b(:, 2)
  b(2:n, 3) = b(1:n - 1, 3) + b(2:n, 1)
  ! CYCLIC(2) columns, rows apart
  c(1, :) = c(2, :)*c(3, :)
  c(3, 3:n) = c(3, 1:n - 2) + c(1, 3:n)
  do i = 1, 4
    print '(12f9.1)', a(i, :)
  end do
  do j = 1, 4
    print '(12f9.1)', b(:, j)
  end do
  do i = 1, 3
    print '(12f9.1)', c(i, :)
  end do
end program forall_rows
