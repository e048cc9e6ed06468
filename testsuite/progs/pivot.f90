! pivot.f90 -- Gaussian elimination with partial pivoting (row
! interchanges), then back substitution, on a general dense system.
!
! The matrix has entries from a simple congruential pattern in [-0.5, 0.5]
! with no diagonal dominance, so most steps exchange rows.  Step k:
!   * the pivot row ip, the first row of largest |a(i,k)|, i >= k (MAXLOC
!     with DIM=1 on the column section);
!   * if ip /= k: rows k and ip of a and entries k and ip of b exchanged
!     through a replicated buffer, and the exchange counted;
!   * the multipliers a(k+1:n,k) scaled by the pivot, then the rank-1
!     update of the trailing submatrix and of b (FORALL).
! Back substitution by a scalar loop with DOT_PRODUCT on row sections.
! The right-hand side is A times a known vector, so the solution is known.
! Mapping: a(n,n) distributed (CYCLIC, *): rows dealt round robin; b
! aligned with the rows of a; the buffers and x replicated.
! Output: the number of row exchanges, the sign and the log of |det A|,
! sum(x), the largest error of x, and the sum of the factors.

program pivot
  implicit none
  integer, parameter :: n = 40
  real(8), dimension(n, n) :: a
  real(8), dimension(n) :: b
  real(8), dimension(n) :: rowbuf, x, xe
  real(8) :: t, piv, logdet, detsign, errmax
  integer :: i, j, k, ip, nswap
!HPF$ PROCESSORS pp(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE a(CYCLIC, *) ONTO pp
!HPF$ ALIGN b(i) WITH a(i, *)

  forall (i = 1:n, j = 1:n) a(i, j) = dble(mod(37*i + 101*j + 7*i*j, 97))/97.0d0 - 0.5d0
  forall (i = 1:n) xe(i) = 1.0d0 + dble(mod(i, 7))/8.0d0
  ! b = A xe, row by row
  do i = 1, n
    b(i) = dot_product(a(i, :), xe)
  end do

  nswap = 0
  do k = 1, n - 1
    ip = maxloc(abs(a(k:n, k)), 1) + k - 1
    if (ip /= k) then
      nswap = nswap + 1
      rowbuf = a(k, :)
      a(k, :) = a(ip, :)
      a(ip, :) = rowbuf
      t = b(k)
      b(k) = b(ip)
      b(ip) = t
    end if
    piv = a(k, k)
    a(k + 1:n, k) = a(k + 1:n, k)/piv
    forall (i = k + 1:n, j = k + 1:n) a(i, j) = a(i, j) - a(i, k)*a(k, j)
    b(k + 1:n) = b(k + 1:n) - a(k + 1:n, k)*b(k)
  end do

  ! back substitution
  do i = n, 1, -1
    t = b(i)
    if (i < n) t = t - dot_product(a(i, i + 1:n), x(i + 1:n))
    x(i) = t/a(i, i)
  end do

  ! determinant from the pivots and the parity of the exchanges
  logdet = 0.0d0
  detsign = 1.0d0
  if (mod(nswap, 2) == 1) detsign = -1.0d0
  do k = 1, n
    logdet = logdet + log(abs(a(k, k)))
    if (a(k, k) < 0.0d0) detsign = -detsign
  end do
  errmax = maxval(abs(x - xe))

  print '(a,i10)', 'pivot row exchanges ', nswap
  print '(a,f5.1)', 'pivot sign of det ', detsign
  print '(a,es22.14)', 'pivot log|det| ', logdet
  print '(a,es22.14)', 'pivot sum(x) ', sum(x)
  print '(a,l2)', 'pivot error below 1e-9 ', errmax < 1.0d-9
  print '(a,es22.14)', 'pivot sum of factors ', sum(a)
end program pivot
