! independent2d.f90 -- an INDEPENDENT DO nest over a (BLOCK, CYCLIC) 2-D
! array (outer and inner loops both INDEPENDENT), an INDEPENDENT loop with
! NEW over a (*, BLOCK) array, and an INDEPENDENT loop that assigns a scalar
! (hpfc should warn that it runs sequentially; the result must stay
! right). Extents 18 x 15.
program spmd_independent2d
  implicit none
  integer, parameter :: n = 18, m = 15
  real(8), dimension(n, m) :: a, b
  real(8), dimension(m, n) :: c
  real(8), dimension(n) :: v
  real(8) :: s, t
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ TEMPLATE tt(n, m)
!HPF$ DISTRIBUTE tt(BLOCK, CYCLIC) ONTO p
!HPF$ ALIGN a(i, j) WITH tt(i, j)
!HPF$ ALIGN b(i, j) WITH tt(i, j)
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (*, BLOCK) ONTO q :: c
!HPF$ DISTRIBUTE (CYCLIC(3)) ONTO q :: v

  forall (i = 1:n) v(i) = dble(i) / 3.0d0
!HPF$ INDEPENDENT, NEW(j)
  do i = 1, n
!HPF$ INDEPENDENT
    do j = 1, m
      a(i, j) = dble(i*j) + v(i)
    end do
  end do
!HPF$ INDEPENDENT
  do j = 1, m
!HPF$ INDEPENDENT
    do i = 1, n
      b(i, j) = a(i, j) - dble(j)
    end do
  end do
  print '(a,es22.14)', 'independent2d a ', sum(a)
  print '(a,es22.14)', 'independent2d b ', sum(b*b)

!HPF$ INDEPENDENT, NEW(t)
  do j = 1, n
    do i = 1, m
      t = a(j, i)*0.5d0
      c(i, j) = t + dble(i)
    end do
  end do
  print '(a,es22.14)', 'independent2d c ', sum(c)

  ! a scalar assigned in an INDEPENDENT loop (not NEW): sequential
  s = 0.0d0
!HPF$ INDEPENDENT
  do i = 1, n
    s = v(i) + 1.0d0
    v(i) = s*2.0d0
  end do
  print '(a,es22.14)', 'independent2d s ', s
  print '(a,es22.14)', 'independent2d v ', sum(v)

  ! INDEPENDENT over a strided range with a reversed inner loop
!HPF$ INDEPENDENT, NEW(j)
  do i = 2, n, 3
    do j = m, 1, -2
      b(i, j) = a(i - 1, j) + c(j, i)
    end do
  end do
  print '(a,es22.14)', 'independent2d b2 ', sum(b)
  print '(a,i0,1x,i0)', 'independent2d indices after ', i, j
end program spmd_independent2d
