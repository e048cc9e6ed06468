! REDISTRIBUTE and REALIGN of ALLOCATABLE arrays: before the ALLOCATE (the
! mapping the ALLOCATE then takes), between ALLOCATE and DEALLOCATE, with
! an alignee following its array, on a TEMPLATE with an alignee not
! allocated, and a DEALLOCATE where a loop's end remaps back.
program redist_alloc
  implicit none
  integer, parameter :: n = 13
  real(8), allocatable :: u(:, :), v(:, :), w(:), z(:)
  integer :: i, j, it, m
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK)
!HPF$ DYNAMIC u, t, w
!HPF$ DISTRIBUTE u(BLOCK, *)
!HPF$ ALIGN v(i, j) WITH u(i, j)
!HPF$ ALIGN w(i) WITH t(i)
!HPF$ ALIGN z(i) WITH t(i)
  m = 9
  ! remapped before it is allocated: allocated (*, CYCLIC)
!HPF$ REDISTRIBUTE u(*, CYCLIC)
  allocate (u(n, m), v(n, m))
  forall (i = 1:n, j = 1:m) u(i, j) = real(i + 3 * j, 8)
  v = 2.0d0 * u
!HPF$ REDISTRIBUTE u(BLOCK, *)
  do i = 2, n
    u(i, :) = u(i, :) + 0.5d0 * u(i - 1, :)
  end do
  print *, sum(u), sum(v), u(n, m)
  ! w allocated, z not, when t is remapped
  allocate (w(n))
  w = (/ (real(i, 8), i = 1, n) /)
!HPF$ REDISTRIBUTE t(CYCLIC)
  allocate (z(n))
  z = w(n:1:-1)
  print *, sum(w * z), z(1)
!HPF$ REALIGN w(i) WITH t(n + 1 - i)
  w = w + z
  print *, sum(w), w(1), w(n)
  ! a loop whose body remaps and, on its last trip, deallocates
  do it = 1, 3
!HPF$ REDISTRIBUTE u(*, BLOCK)
    do j = 2, m
      u(:, j) = u(:, j) + 0.25d0 * u(:, j - 1)
    end do
    print *, it, sum(u)
    if (it == 3) deallocate (u, v)
  end do
  deallocate (w, z)
end program redist_alloc
