! Test: allocatable arrays aligned to a BLOCK-distributed template;
! one is DYNAMIC and gets REALIGNed to the reversed template positions,
! after which a = a + b pairs elements that used to live far apart.
program alloc_realign
  implicit none
  integer, parameter :: n = 120
  real*8, allocatable :: a(:), b(:)
  real*8 s1, s2
  integer i
!HPF$ PROCESSORS p(4)
!HPF$ TEMPLATE t(n)
!HPF$ DISTRIBUTE t(BLOCK) ONTO p
!HPF$ DYNAMIC b
!HPF$ ALIGN a(i) WITH t(i)
!HPF$ ALIGN b(i) WITH t(i)

  allocate(a(n))
  allocate(b(n))

  ! identity alignment: fill and combine elementwise
  forall (i = 1:n) a(i) = dble(i)
  forall (i = 1:n) b(i) = dble(mod(i, 10))
  a = 2.0d0*a - b
  write(*,'(A,2F12.1)') ' sums after first phase   ', sum(a), sum(b)
  write(*,'(A,2F12.1)') ' a(1), a(n)               ', a(1), a(n)

!HPF$ REALIGN b(i) WITH t(n+1-i)

  ! b's values are unchanged by the remapping; only their home moves
  s1 = sum(b)
  a = a + b
  write(*,'(A,2F12.1)') ' sums after realign + add ', sum(a), s1

  ! weighted checks that depend on element order, not just on sums
  s2 = 0.0d0
  do i = 1, n
     s2 = s2 + dble(i)*a(i)
  end do
  write(*,'(A,F14.1)') ' sum i*a(i)               ', s2
  write(*,'(A,F14.1)') ' sum a(i)*b(n+1-i)        ', sum(a*b(n:1:-1))

  ! shifted update under the new alignment
  b(2:n) = b(1:n-1) + a(2:n)
  b(1) = 0.0d0
  write(*,'(A,2F12.1)') ' max b, min b             ', maxval(b), minval(b)
  write(*,'(A,F12.1)')  ' final sum b              ', sum(b)

  deallocate(a, b)
end program alloc_realign
