! 1-D Jacobi relaxation: external subroutines with undirected and
! INHERIT dummies, plus an internal routine with an assumed-shape dummy.
subroutine relax(u, unew, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(inout) :: unew(n)
  unew(2:n-1) = 0.5d0 * (u(1:n-2) + u(3:n))
end subroutine relax

program stencil_subs
  implicit none
  integer, parameter :: n = 30
  real(8) :: u(n), unew(n)
  integer :: i, step
!HPF$ DISTRIBUTE u(BLOCK)
!HPF$ ALIGN unew(i) WITH u(i)
  external :: relax, copyback

  forall (i = 1:n) u(i) = real(mod(7*i, 11) - 5, 8)
  u(1) = 8.0d0
  u(n) = -4.0d0
  unew = u
  write (*, '(a)') 'initial'
  call norms(u)
  do step = 1, 10
    call relax(u, unew, n)
    call copyback(u, unew, n)
    if (mod(step, 2) == 0) then
      write (*, *) 'step', step
      call norms(u)
    end if
  end do
  do i = 1, n, 7
    write (*, *) 'index', i
    write (*, '(a, es22.14)') ' u(i)   =', u(i)
  end do
  write (*, '(a, es22.14)') ' u(n)   =', u(n)

contains

  subroutine norms(x)
    real(8), intent(in) :: x(:)
    write (*, '(a, es22.14)') ' sum    =', sum(x)
    write (*, '(a, es22.14)') ' maxval =', maxval(x)
  end subroutine norms

end program stencil_subs

subroutine copyback(a, b, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: a(n)
  real(8), intent(in) :: b(n)
!HPF$ INHERIT a, b
  a = b
end subroutine copyback
