! Sizes, indices and subscripts of kind 8, as codes written for large
! data sets declare them: the run time takes them as default INTEGERs
! (hpfrt_i4, checked), and a block size larger than its template is taken
! as the template's extent.
program int8_bounds
  implicit none
  integer, parameter :: i8 = selected_int_kind(18)
  integer(i8), parameter :: n = 60_i8, m = 7_i8
  integer(i8), parameter :: big = 4611686018427387904_i8
  real(8) :: a(n), b(n), c(m, n)
  integer(i8) :: i, j, lo, hi, k(5)
!hpf$ template t(n)
!hpf$ distribute t(cyclic(big))
!hpf$ align a(i) with t(i)
!hpf$ distribute b(cyclic(3))
!hpf$ distribute c(*, block)
  forall (i = 1:n) a(i) = real(i, 8)
  forall (i = 1:n) b(i) = 0.5d0 * real(i, 8)
  lo = 2_i8
  hi = n - 1_i8
  b(lo:hi) = a(lo-1:hi-1) + a(lo+1:hi+1)
  do j = 1_i8, n
    forall (i = 1:m) c(i, j) = real(i * j, 8)
  end do
  k = (/ 1_i8, 17_i8, 33_i8, 49_i8, n /)
  print '(5f10.2)', b(k)
  print '(f14.2)', sum(c) + sum(b)
  i = n / 2_i8
  a(i) = -1.0d0
  print '(2f10.2)', a(i), minval(a)
end program int8_bounds
