! A mapped CHARACTER array (kept replicated, with a warning, as is what is
! aligned with it) beside mapped numeric arrays: assigned whole and by
! element in a loop, compared in a WHERE mask on a numeric array, printed.
program charmap
  implicit none
  integer, parameter :: n = 11
  character(len=4) :: tag(n)
  real :: val(n), w(n)
  integer :: i
!HPF$ DISTRIBUTE tag(BLOCK)
!HPF$ ALIGN w(i) WITH tag(i)
!HPF$ DISTRIBUTE val(CYCLIC)
  tag = 'none'
  forall (i = 1:n) val(i) = real(mod(5 * i, 7))
  do i = 1, n
    if (val(i) > 3.0) tag(i) = 'big'
  end do
  w = 1.0
  where (tag == 'big') w = val * 2.0
  print '(11a5)', tag
  print *, sum(w), count(tag == 'none')
end program charmap
