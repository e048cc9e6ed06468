! BLOCK actual passed to a prescriptive CYCLIC dummy (remap in and out)
! together with a CYCLIC actual passed to a descriptive *(CYCLIC) dummy.
subroutine peek(x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
!HPF$ DISTRIBUTE x(CYCLIC)
  write (*, '(a, es22.14)') ' peek sum(x) =', sum(x)
end subroutine peek

program cyclic_remap
  implicit none
  integer, parameter :: n = 30
  real(8) :: a(n), c(n)
  integer :: i, it
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ DISTRIBUTE c(CYCLIC)
  external :: work, peek

  forall (i = 1:n) a(i) = real(i, 8)
  forall (i = 1:n) c(i) = 0.25d0 * real(mod(5*i, 9) - 4, 8)
  call peek(a, n)
  do it = 1, 5
    call work(a, c, n)
    write (*, *) 'iteration', it
    write (*, '(a, es22.14)') ' sum(a)      =', sum(a)
    write (*, '(a, es22.14)') ' maxval(a)   =', maxval(a)
    write (*, '(a, es22.14)') ' dot(a, c)   =', dot_product(a, c)
    call peek(a, n)
    c = cshift(c, 1)
  end do
  do i = 1, n
    if (mod(i, 6) == 1 .or. i == n) then
      write (*, *) 'element', i
      write (*, '(a, es22.14)') ' a(i)        =', a(i)
    end if
  end do
  write (*, '(a, es22.14)') ' sum(c)      =', sum(c)
end program cyclic_remap

subroutine work(x, y, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  real(8), intent(in) :: y(n)
!HPF$ DISTRIBUTE x(CYCLIC)
!HPF$ DISTRIBUTE y *(CYCLIC)
  integer :: i
  do i = 1, n
    if (mod(i, 3) == 0) then
      x(i) = x(i) + y(i)
    else
      x(i) = 0.5d0 * x(i) - 0.25d0 * y(i)
    end if
  end do
end subroutine work
