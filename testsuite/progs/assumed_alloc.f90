! Test: distributed allocatable arrays passed to internal procedures
! (after CONTAINS) with assumed-shape dummies; extents come from SIZE.
program assumed_alloc
  implicit none
  integer, parameter :: nx = 100
  integer, parameter :: m1 = 40, m2 = 24
  real*8, allocatable :: x(:), y(:,:)
  integer i, j, k
!HPF$ PROCESSORS q(4)
!HPF$ PROCESSORS p(2,2)
!HPF$ DISTRIBUTE x(BLOCK) ONTO q
!HPF$ DISTRIBUTE y(BLOCK,BLOCK) ONTO p

  allocate(x(nx), y(m1,m2))
  forall (i = 1:nx) x(i) = dble(mod(i, 8))
  forall (i = 1:m1, j = 1:m2) y(i,j) = dble(mod(i*j, 6))
  write(*,'(A,2F12.2)') ' initial sums  ', sum(x), sum(y)

  do k = 1, 3
     call stencil1(x)
     call stencil2(y)
     write(*,'(A,I2,2F14.4)') ' step', k, sum(x), sum(y)
  end do

  call scale1(x, 4.0d0)
  call scale2(y, 0.5d0)
  write(*,'(A,2F14.4)') ' after scaling ', sum(x), sum(y)
  write(*,'(A,2F14.4)') ' x(1), x(nx)   ', x(1), x(nx)
  write(*,'(A,2F14.4)') ' y(2,2), max y ', y(2,2), maxval(y)

  ! pass an array section too: every other column of y
  call scale2(y(:, 1:m2:2), 2.0d0)
  write(*,'(A,F14.4)') ' after section scale', sum(y)

  deallocate(x, y)

contains

  subroutine stencil1(v)
    real*8, intent(inout) :: v(:)
    real*8 tmp(size(v))
    integer n
    n = size(v)
    tmp = v
    v(2:n-1) = 0.25d0*tmp(1:n-2) + 0.5d0*tmp(2:n-1) + 0.25d0*tmp(3:n)
  end subroutine stencil1

  subroutine stencil2(w)
    real*8, intent(inout) :: w(:,:)
    real*8 tmp(size(w,1), size(w,2))
    integer n1, n2
    n1 = size(w, 1)
    n2 = size(w, 2)
    tmp = w
    w(2:n1-1, 2:n2-1) = 0.125d0*(tmp(1:n1-2, 2:n2-1) + tmp(3:n1, 2:n2-1) &
                      + tmp(2:n1-1, 1:n2-2) + tmp(2:n1-1, 3:n2))          &
                      + 0.5d0*tmp(2:n1-1, 2:n2-1)
  end subroutine stencil2

  subroutine scale1(v, f)
    real*8, intent(inout) :: v(:)
    real*8, intent(in) :: f
    integer i
    do i = 1, size(v)
       v(i) = f*v(i) + dble(i)
    end do
  end subroutine scale1

  subroutine scale2(w, f)
    real*8, intent(inout) :: w(:,:)
    real*8, intent(in) :: f
    where (w > 1.0d0)
       w = f*w
    elsewhere
       w = w + f
    end where
  end subroutine scale2

end program assumed_alloc
