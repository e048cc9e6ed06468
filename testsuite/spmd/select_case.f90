! SELECT CASE on INTEGER (values, ranges, lists, DEFAULT first), CHARACTER
! and LOGICAL selectors, nested, in a loop over a mapped array's elements.
program sel
  implicit none
  integer, parameter :: n = 12
  integer :: a(n), i, k, cnt(4)
  character(len=5) :: word
  logical :: even
!HPF$ DISTRIBUTE a(BLOCK)
  forall (i = 1:n) a(i) = mod(7 * i, 11) - 3
  cnt = 0
  do i = 1, n
    k = a(i)
    select case (k)
    case default
      cnt(4) = cnt(4) + 1
    case (:-1)
      cnt(1) = cnt(1) + 1
    case (0, 2, 4:5)
      cnt(2) = cnt(2) + 1
      even = mod(k, 2) == 0
      select case (even)
      case (.true.)
        cnt(2) = cnt(2) + 10
      case (.false.)
        cnt(2) = cnt(2) + 100
      end select
    case (6:)
      cnt(3) = cnt(3) + 1
    end select
  end do
  print *, cnt
  do i = 1, 3
    if (i == 1) word = 'alpha'
    if (i == 2) word = 'beta'
    if (i == 3) word = 'gamma'
    selectcase (word)
    case ('alpha', 'beta')
      print *, i, 'greek start'
    case ('c':'h')
      print *, i, 'c to h'
    endselect
  end do
  select case (n)
  case default
    print *, 'only default', sum(a)
  end select
end program sel
