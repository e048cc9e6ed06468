! cg.f90 -- conjugate gradient for a 1-D Helmholtz-shifted Laplacian.
!
! Solves A x = b, A = tridiag(-1, 2 + sigma, -1) of order n (Dirichlet
! ends), b chosen so that the exact solution is known, by unpreconditioned
! conjugate gradients:
!     r = b - A x,  p = r,  rho = r.r
!     loop: q = A p; alpha = rho/(p.q); x = x + alpha p; r = r - alpha q
!           rho_new = r.r; stop when sqrt(rho_new) <= tol*sqrt(rho0)
!           p = r + (rho_new/rho) p
! at most maxit iterations.  The work is split into internal subroutines
! in the manner of a library code: the matrix-vector product, the two
! vector updates and the setup each in their own SUBROUTINE, using the
! host's distributed vectors (hpfc does not pass mapped arrays as
! arguments).
! Mapping: x, r, p, q, b, xe aligned with a template of n, (BLOCK).
! Output: the iterations taken, the final relative residual, the
! solution's sum and its largest error against the exact solution.

program cg
  implicit none
  integer, parameter :: n = 64
  integer, parameter :: maxit = 200
  real(8), parameter :: sigma = 0.5d0
  real(8), parameter :: tol = 1.0d-10
  real(8), dimension(n) :: x, r, p, q, b, xe
  real(8) :: rho, rhonew, rho0, alpha, beta, pq, relres, errmax
  integer :: it
!HPF$ PROCESSORS procs(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE tv(n)
!HPF$ DISTRIBUTE tv(BLOCK) ONTO procs
!HPF$ ALIGN x(i) WITH tv(i)
!HPF$ ALIGN r(i) WITH tv(i)
!HPF$ ALIGN p(i) WITH tv(i)
!HPF$ ALIGN q(i) WITH tv(i)
!HPF$ ALIGN b(i) WITH tv(i)
!HPF$ ALIGN xe(i) WITH tv(i)

  call setup()
  ! initial residual with x = 0
  x = 0.0d0
  r = b
  p = r
  rho = dot_product(r, r)
  rho0 = rho
  it = 0
  relres = 1.0d0
  do while (it < maxit)
    it = it + 1
    call matvec()
    pq = dot_product(p, q)
    alpha = rho/pq
    call update(alpha)
    rhonew = dot_product(r, r)
    relres = sqrt(rhonew)/sqrt(rho0)
    if (relres <= tol) exit
    beta = rhonew/rho
    call newdir(beta)
    rho = rhonew
  end do

  errmax = maxval(abs(x - xe))
  print '(a,i10)', 'cg iterations ', it
  print '(a,l2)', 'cg converged ', relres <= tol
  print '(a,es22.14)', 'cg sum(x) ', sum(x)
  print '(a,l2)', 'cg error below 1e-8 ', errmax < 1.0d-8
  print '(a,es22.14)', 'cg x(n/2) ', x(n/2)

contains

  ! the exact solution and the right-hand side b = A xe
  subroutine setup()
    integer :: k
    forall (k = 1:n) xe(k) = sin(3.0d0*dble(k)/dble(n + 1)) + dble(k)/dble(n)
    p = xe
    call matvec()
    b = q
  end subroutine setup

  ! q = A p
  subroutine matvec()
    q(2:n - 1) = (2.0d0 + sigma)*p(2:n - 1) - p(1:n - 2) - p(3:n)
    q(1) = (2.0d0 + sigma)*p(1) - p(2)
    q(n) = (2.0d0 + sigma)*p(n) - p(n - 1)
  end subroutine matvec

  ! x = x + alpha p, r = r - alpha q
  subroutine update(a)
    real(8), intent(in) :: a
    x = x + a*p
    r = r - a*q
  end subroutine update

  ! p = r + beta p
  subroutine newdir(bt)
    real(8), intent(in) :: bt
    p = r + bt*p
  end subroutine newdir

end program cg
