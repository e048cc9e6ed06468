! overlap_box.f90 -- overlap shifts of only the part of the boundary a
! statement reads: one column or row of a (BLOCK,BLOCK) array, a box set
! by scalars, the corners of a nine-point stencil, a plane of a 3-D
! array, a negative stride, an empty FORALL, offset and reversed
! alignments, and a subscript that runs an inline reduction's index (the
! whole boundary). Every array is changed before each statement that
! reads it shifted, so a ghost cell left out of an exchange that the
! statement reads keeps a stale value and changes what is printed.
program spmd_overlap_box
  implicit none
  integer, parameter :: n = 13, m = 11, l = 4
  real(8) :: u(n, m), v(n, m), b(n, m, l), c(n, m, l), s(n)
  real(8) :: x(n), y(n), w(n + 4), z(n)
  integer :: i, j, k, it
!HPF$ PROCESSORS p(2, 2), q(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE t(n + 6)
!HPF$ DISTRIBUTE u(BLOCK, BLOCK) ONTO p
!HPF$ ALIGN v(i, j) WITH u(i, j)
!HPF$ DISTRIBUTE (BLOCK, BLOCK, *) ONTO p :: b, c
!HPF$ DISTRIBUTE t(BLOCK) ONTO q
!HPF$ ALIGN x(i) WITH t(i + 3)
!HPF$ ALIGN y(i) WITH t(n + 2 - i)
!HPF$ ALIGN w(i) WITH t(i + 1)
!HPF$ ALIGN z(i) WITH t(i)
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: s

  forall (i = 1:n, j = 1:m) u(i, j) = dble(mod(i*7 + j*3, 13)) + 0.25d0*dble(i)
  v = 0
  forall (i = 1:n, j = 1:m, k = 1:l) b(i, j, k) = dble(mod(i + 2*j + 5*k, 11))
  c = 0
  forall (i = 1:n) x(i) = dble(mod(i*i, 9))
  forall (i = 1:n) y(i) = dble(mod(3*i, 7)) + 1.0d0
  forall (i = 1:n + 4) w(i) = dble(i)
  z = 0
  s = 0

  do it = 1, 3
    ! the whole array changes: every ghost cell is stale afterwards
    u = u + dble(it)
    ! one column, then one row
    forall (i = 2:n - 1) v(i, 5) = u(i - 1, 5) + 2*u(i + 1, 5)
    u = u*0.5d0
    forall (j = 2:m - 1) v(3, j) = u(3, j - 1) - u(3, j + 1)
    ! a box set by scalars, shifts of 1 and 2
    k = it + 2
    u = u + 1
    forall (i = k:n - k) v(i, k) = u(i - 1, k + 1) + u(i + 2, k - 1)
    ! corners
    u = u - 0.25d0
    forall (i = 2:n - 1, j = 2:m - 1) v(i, j) = v(i, j) + u(i - 1, j - 1) + &
      u(i + 1, j + 1) - u(i - 1, j + 1) + 0.5d0*u(i + 1, j - 1)
  end do
  call show2('u', u)
  call show2('v', v)

  ! a plane of a 3-D array, read at another plane
  b = b + 1
  forall (i = 2:n - 1, j = 2:m - 1) c(i, j, 2) = b(i - 1, j, 3) + b(i, j + 1, 1)
  b = b*2
  forall (i = 2:n - 1, j = 1:m) c(i, j, 4) = b(i + 1, j, 4) - b(i - 1, j, 2)
  print '(a, 2f12.4)', 'c', sum(c(:, :, 2)), sum(c(:, :, 4))
  print '(8f9.3)', c(:, 6, 2)

  ! 1-D: negative strides, a short range, an empty FORALL, alignments
  do it = 1, 2
    x = x + 1
    forall (i = n - 1:2:-1) z(i) = x(i + 1) - x(i - 1)
    x = x*1.5d0
    forall (i = 9:4:-2) z(i) = z(i) + x(i + 1)
    y = y - 1
    forall (i = 3:6) z(i) = z(i) + y(i - 1)*y(i + 2)
    w = w + 2
    forall (i = 2:5) z(i) = z(i) + w(i + 3)
    forall (i = 6:5) z(i) = x(i - 1)
  end do
  print '(7f10.3)', z

  ! an inline reduction's index in the subscript: the whole boundary
  u = u + 3
  forall (i = 2:n - 1) s(i) = sum(u(i - 1, 2:m)) + maxval(u(i + 1, 1:m - 1))
  print '(7f10.3)', s

contains

  subroutine show2(name, a)
    character(*), intent(in) :: name
    real(8), intent(in) :: a(:, :)
    integer :: jj
    print '(a, f14.5)', name, sum(a)
    do jj = 1, size(a, 2), 3
      print '(7f10.3)', a(1:size(a, 1):2, jj)
    end do
  end subroutine show2

end program spmd_overlap_box
