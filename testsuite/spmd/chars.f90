! chars.f90 - CHARACTER handling as codes do it for their reports: LEN,
! LEN_TRIM, TRIM, ADJUSTL, ADJUSTR, INDEX, substrings with constant and
! computed bounds, a name built with // in a loop, all beside a
! distributed array whose sum is reported under a label.
program chars
  implicit none
  integer, parameter :: n = 20
  character(len=16) :: label, field, padded
  character(len=40) :: line
  character(len=8) :: tag
  real :: a(n)
  integer :: i, k, p
!hpf$ distribute a(block)
  label = 'residual'
  padded = '   norm'
  a = 1.5
  line = 'step=12;tol=1e-6;name=jacobi'
  p = index(line, ';')
  field = line(1:p-1)
  print '(a)', trim(field)
  k = index(line, '=', back=.true.)
  print '(a)', line(k+1:len_trim(line))
  print '(i3, i3, i3)', len(label), len_trim(label), len(trim(label))
  print '(a, a)', '[', adjustl(padded)
  print '(a, a, a)', '[', adjustr(label), ']'
  tag = ''
  do i = 1, 3
     tag = trim(tag) // label(i:i)
  end do
  print '(a, a, f8.2)', trim(tag), ' sum ', sum(a)
  if (index(label, 'dual') > 0 .and. label(1:3) == 'res') then
     print '(a)', 'label ends in dual'
  end if
  print '(a)', label(:4) // '/' // label(5:)
end program chars
