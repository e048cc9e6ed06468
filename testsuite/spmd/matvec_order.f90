! matvec_order.f90 -- matrix-vector products that hpfc lowers through a
! replicated copy of the swept vector and, where the terms walk a row of
! a column-major matrix, with the sum's loop outside the rows' loop:
! y = MATMUL(a, x) on (BLOCK,*) rows, the vector read being the one
! assigned (x = MATMUL(a, x)), a CYCLIC(3) matrix, DOT_PRODUCT of a row
! in a FORALL, an ALLOCATABLE matrix with lower bounds 0 and -2, an
! INTEGER product, and the cases left as they were: a REAL(4) result of a
! REAL(8) sum, a masked FORALL, a sum down a column (a(k, i)), and a
! vector swept in only one of its two dimensions (x2(k, 2)).
! Every value is printed with enough digits to catch a changed order of
! the sum's terms. Extents 13 x 17.
program spmd_matvec_order
  implicit none
  integer, parameter :: n = 13, m = 17
  real(8) :: a(n, m), c(n, m), x(m), y(n), z(n), w(n), x2(m, 3)
  real(4) :: y4(n)
  integer :: ia(n, m), ix(m), iy(n)
  real(8), allocatable :: b(:, :), u(:), v(:)
  integer :: i, j
!HPF$ PROCESSORS p(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE a(BLOCK, *) ONTO p
!HPF$ ALIGN y(i) WITH a(i, *)
!HPF$ ALIGN z(i) WITH a(i, *)
!HPF$ ALIGN w(i) WITH a(i, *)
!HPF$ ALIGN y4(i) WITH a(i, *)
!HPF$ DISTRIBUTE x(BLOCK) ONTO p
!HPF$ DISTRIBUTE x2(BLOCK, *) ONTO p
!HPF$ DISTRIBUTE c(CYCLIC(3), *) ONTO p
!HPF$ DISTRIBUTE ia(BLOCK, *) ONTO p
!HPF$ ALIGN iy(i) WITH ia(i, *)
!HPF$ DISTRIBUTE ix(CYCLIC) ONTO p
!HPF$ DISTRIBUTE b(BLOCK, *) ONTO p
!HPF$ DISTRIBUTE u(BLOCK) ONTO p

  forall (i = 1:n, j = 1:m) a(i, j) = 1.0d0/dble(i + 2*j) + 0.1d0*dble(mod(i*j, 5))
  forall (i = 1:n, j = 1:m) c(i, j) = dble(mod(i + j, 7)) - 2.5d0/dble(j)
  forall (j = 1:m) x(j) = 1.0d0/dble(j) - 0.3d0
  forall (j = 1:m, i = 1:3) x2(j, i) = dble(i*j)/7.0d0
  forall (i = 1:n, j = 1:m) ia(i, j) = mod(i*j, 11) - 5
  forall (j = 1:m) ix(j) = mod(3*j, 7) - 2

  y = matmul(a, x)
  print '(a,4es24.16)', 'y ', y(1), y(7), y(n), sum(y)
  z = matmul(c, x)
  print '(a,4es24.16)', 'z ', z(1), z(5), z(n), sum(z)
  forall (i = 1:n) w(i) = dot_product(a(i, :), x)
  print '(a,3es24.16)', 'w ', w(2), w(n), sum(w)
  forall (i = 1:n) w(i) = sum(a(i, :)*x2(:, 2))
  print '(a,3es24.16)', 'w2 ', w(3), w(n), sum(w)
  iy = matmul(ia, ix)
  print '(a,3i8)', 'iy ', iy(1), iy(n), sum(iy)
  y4 = real(matmul(a, x), 4)
  print '(a,3es16.7)', 'y4 ', y4(1), y4(7), y4(n)
  forall (i = 1:n, i /= 4) y(i) = sum(a(i, :)*x)
  print '(a,3es24.16)', 'ym ', y(4), y(n), sum(y)
  forall (i = 1:n) w(i) = sum(a(i, :)*x2(:, 1) + a(i, :)*x2(:, 3))
  print '(a,3es24.16)', 'w3 ', w(1), w(n), sum(w)
  ! a product along the rows is turned as a sum is
  z = product(a, dim = 2)
  print '(a,3es24.16)', 'zp ', z(1), z(n), sum(z)
  forall (i = 1:n) w(i) = product(1.0d0 + 0.5d0*a(i, :))
  print '(a,3es24.16)', 'wp ', w(1), w(n), sum(w)

  ! the vector read is the one assigned: the copy is taken first
  allocate(b(0:m - 1, -2:m - 3), u(0:m - 1), v(m))
  forall (i = 0:m - 1, j = -2:m - 3) b(i, j) = dble(i - j)/dble(m) + 0.01d0*dble(i*j)
  forall (i = 0:m - 1) u(i) = 1.0d0 + 0.1d0*dble(i)
  do j = 1, 3
    u = matmul(b, u)
    u = u/maxval(abs(u))
  end do
  print '(a,3es24.16)', 'u ', u(0), u(m - 1), sum(u)
  v = matmul(u, b)
  print '(a,3es24.16)', 'v ', v(1), v(m), sum(v)
  deallocate(b, u, v)
end program spmd_matvec_order
