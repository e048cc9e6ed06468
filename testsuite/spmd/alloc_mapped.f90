! Mapped ALLOCATABLE arrays: sizes READ at run time (alloc_mapped.in),
! DISTRIBUTE and ALIGN taking effect at ALLOCATE with the actual bounds
! (lower bounds 0 and -2), 2-D (BLOCK, CYCLIC), an array aligned with a
! fixed TEMPLATE, reallocation in a loop with growing sizes, SIZE, LBOUND,
! UBOUND, shifts and reductions, a subroutine with its own mapped
! allocatable called twice.
program alloc_mapped
  implicit none
  real(8), allocatable :: u(:), w(:), g(:,:), h(:,:)
  integer, allocatable :: k(:)
  integer :: n, m, i, j, step
!HPF$ PROCESSORS pr(2, 2)
!HPF$ TEMPLATE t(200)
!HPF$ DISTRIBUTE t(CYCLIC(4))
!HPF$ DISTRIBUTE u(BLOCK)
!HPF$ ALIGN w(i) WITH u(i)
!HPF$ DISTRIBUTE g(BLOCK, CYCLIC) ONTO pr
!HPF$ ALIGN h(i, j) WITH g(j, i)
!HPF$ ALIGN k(i) WITH t(i + 3)
  read *, n, m
  allocate(u(0:n), w(0:n))
  forall (i = 0:n) u(i) = real(i, 8) / 4.0d0
  w = 0.0d0
  w(1:n-1) = 0.5d0 * (u(0:n-2) + u(2:n))
  print *, 'u:', size(u), lbound(u), ubound(w), sum(w), maxval(w)
  allocate(g(n, m), h(m, n))
  forall (i = 1:n, j = 1:m) g(i, j) = real(i + 10 * j, 8)
  h = transpose(g)
  print *, 'g:', size(g, 1), size(g, 2), sum(h), h(m, 1), h(1, n)
  do step = 1, 3
    allocate(k(-2:n * step))
    forall (i = -2:n * step) k(i) = i * step
    print *, 'k:', step, size(k), lbound(k), sum(k), maxval(cshift(k, 1))
    deallocate(k)
  end do
  deallocate(w, u)
  allocate(u(m))
  u = 1.0d0
  print *, 'u again:', size(u), sum(u)
  call local_work(n)
  call local_work(m + 3)
end program alloc_mapped

subroutine local_work(len)
  implicit none
  integer, intent(in) :: len
  integer, allocatable :: q(:)
  integer :: i
!HPF$ DISTRIBUTE q(CYCLIC)
  allocate(q(len))
  forall (i = 1:len) q(i) = mod(i * 7, len)
  print *, 'local:', len, sum(q), maxval(q), minloc(q, 1)
end subroutine local_work
