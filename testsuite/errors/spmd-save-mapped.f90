! A mapped array with SAVE in a procedure: kept from one call to the next.
program p
  implicit none
  integer :: k
  do k = 1, 3
    call acc(k)
  end do
end program p

subroutine acc(k)
  implicit none
  integer, intent(in) :: k
  real(8), save :: w(6)
  integer, save :: first = 1
!HPF$ DISTRIBUTE w(BLOCK)
  if (first == 1) then
    w = 0.0d0
    first = 0
  end if
  w = w + dble(k)
  print *, k, sum(w)
end subroutine acc
