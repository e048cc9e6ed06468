! One library routine called with arrays of many different mappings,
! as in an ADAPTOR test driver
program multimap
  implicit none
  integer, parameter :: n = 30, m = 6
  integer :: ib(n), ic(n), ik(n), ir(n)
  integer :: g(n, m), h(m, n)
  integer :: i, j, s
  integer :: idot
!hpf$ processors pr(number_of_processors())
!hpf$ distribute ib(block) onto pr
!hpf$ distribute ic(cyclic) onto pr
!hpf$ distribute ik(cyclic(4)) onto pr
!hpf$ distribute g(*, block) onto pr
!hpf$ distribute h(block, *) onto pr

  do i = 1, n
    ib(i) = mod(7 * i, 17)
  end do
  ic = ib
  ik = ib
  ir = ib
  forall (i = 1:n, j = 1:m) g(i, j) = i * j - 3 * j
  forall (i = 1:m, j = 1:n) h(i, j) = mod(i + j, 4)

  call bump(ib, n, 1)
  call bump(ic, n, 2)
  call bump(ik, n, 3)
  call bump(ir, n, 4)
  write(*, '(4i8)') sum(ib), sum(ic), sum(ik), sum(ir)

  do j = 1, m
    call bump(g(:, j), n, j)
  end do
  write(*, '(a,i8)') 'g ', sum(g)

  call presc(ic, n, s)
  write(*, '(a,i8)') 'presc(ic) ', s
  call presc(ik, n, s)
  write(*, '(a,i8)') 'presc(ik) ', s
  call presc(g(:, 3), n, s)
  write(*, '(a,i8)') 'presc(g(:,3)) ', s

  call trans(h(2, :), n, s)
  write(*, '(a,i8)') 'trans(h(2,:)) ', s
  call trans(ib, n, s)
  write(*, '(a,i8)') 'trans(ib) ', s
  write(*, '(a,i8)') 'dot ', idot(ib, ic, n) + idot(g(:, 1), h(m, :), n)
  write(*, '(10i5)') ik(1:10)
end program multimap

subroutine bump(x, n, k)
  implicit none
  integer :: n, k
  integer :: x(n)
  integer :: i
  do i = 1, n
    x(i) = x(i) + mod(i, k + 1)
  end do
end subroutine bump

subroutine presc(x, n, s)
  implicit none
  integer :: n, s
  integer :: x(n)
!hpf$ distribute x(block)
  x = cshift(x, 1)
  s = sum(x) * 10 + maxloc(x, 1)
end subroutine presc

subroutine trans(x, n, s)
  implicit none
  integer, intent(in) :: n
  integer, intent(out) :: s
  integer, intent(in) :: x(n)
!hpf$ distribute x *
  integer :: i
  s = 0
  do i = 1, n, 2
    s = s + x(i) * i
  end do
end subroutine trans

integer function idot(x, y, n)
  implicit none
  integer :: n
  integer :: x(n), y(n)
!hpf$ inherit x, y
  idot = sum(x * y)
end function idot
