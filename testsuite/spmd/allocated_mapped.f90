! allocated_mapped.f90 -- ALLOCATED of mapped ALLOCATABLE arrays: printed,
! in the idiom IF (ALLOCATED(w)) DEALLOCATE(w) before a reallocation of
! another size, after a DEALLOCATE, of an array that a process owns none
! of (n smaller than the processes), and of a DYNAMIC array across a
! REDISTRIBUTE. n = 5.
program spmd_allocated_mapped
  implicit none
  integer, parameter :: n = 5
  real(8), allocatable :: w(:), v(:), d(:)
  integer :: k, m
!HPF$ DISTRIBUTE w(BLOCK)
!HPF$ DISTRIBUTE v(CYCLIC)
!HPF$ DYNAMIC d
!HPF$ DISTRIBUTE d(BLOCK)

  print '(a,2l2)', 'at start ', allocated(w), allocated(v)
  allocate (v(2))
  v = 3.0d0
  do k = 1, 3
    m = n*k
    if (allocated(w)) deallocate (w)
    allocate (w(m))
    w = dble(k)
    print '(a,i3,l2,es22.14)', 'w ', m, allocated(w), sum(w)
  end do
  print '(a,l2,es22.14)', 'v ', allocated(v), sum(v)
  deallocate (w, v)
  print '(a,2l2)', 'freed ', allocated(w), allocated(v)
  allocate (d(2*n))
  d = 1.5d0
!HPF$ REDISTRIBUTE d(CYCLIC)
  print '(a,l2,es22.14)', 'd ', allocated(d), sum(d)
  deallocate (d)
  print '(a,l2)', 'd freed ', allocated(d)
end program spmd_allocated_mapped
