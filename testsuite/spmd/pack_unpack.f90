! pack_unpack.f90 - PACK and UNPACK as codes use them to compress and
! scatter back the active cells of a field: PACK of a BLOCK array by a
! mask into an ALLOCATABLE vector sized by COUNT, PACK with VECTOR,
! UNPACK of the updated values back into a CYCLIC array with a FIELD,
! PACK of a rank-2 array.
program pack_unpack
  implicit none
  integer, parameter :: n = 30
  real :: x(n), y(n), g(4, 5)
  real, allocatable :: act(:)
  real :: pad(12)
  logical :: on(n)
  integer :: i, k
!hpf$ distribute x(block)
!hpf$ distribute y(cyclic)
!hpf$ align on(i) with x(i)
  do i = 1, n
     x(i) = real(mod(i * 7, 11)) - 3.0
  end do
  on = x > 0.0
  k = count(on)
  allocate(act(k))
  act = pack(x, on)
  act = act * 2.0
  y = unpack(act, on, -1.0)
  pad = -9.0
  pad = pack(x, x < 0.0, pad)
  g = reshape((/ (real(i), i = 1, 20) /), (/ 4, 5 /))
  print '(a, i4, f8.2)', 'active ', k, sum(act)
  print '(10f6.1)', y
  print '(6f6.1)', pad
  print '(5f6.1)', pack(g, g > 14.0)
end program pack_unpack
