! 2-D (BLOCK, BLOCK) arrays passed to subroutines with transcriptive,
! undirected and prescriptive (remapping) dummies.
subroutine scale(a, m, n, f)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(inout) :: a(m, n)
  real(8), intent(in) :: f
!HPF$ DISTRIBUTE a *
  a = f * a
end subroutine scale

program matrix_subs
  implicit none
  integer, parameter :: m = 13, n = 22
  real(8) :: a(m, n), b(m, n), s(n)
  integer :: i, j
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE a(BLOCK, BLOCK) ONTO p
!HPF$ ALIGN b(i, j) WITH a(i, j)
  external :: scale, transpose_add, colsum

  forall (i = 1:m, j = 1:n) a(i, j) = real(mod(i + 2*j, 7) - 3, 8)
  forall (i = 1:m, j = 1:n) b(i, j) = 0.25d0 * real(mod(3*i + j, 5), 8)
  call report('init a', a)
  call report('init b', b)
  call scale(a, m, n, 0.5d0)
  call report('scaled a', a)
  call transpose_add(a, b, m, n)
  call report('a + b^T', a)
  call report('halved b', b)
  where (a > 0.0d0) b = b + 0.25d0 * a
  call scale(b, m, n, 2.0d0)
  call report('where b', b)
  call colsum(a, m, n, s)
  write (*, '(a, es22.14)') 'sum(s)      =', sum(s)
  write (*, '(a, es22.14)') 'maxval(s)   =', maxval(s)
  write (*, '(a, es22.14)') 'dot(s, s)   =', dot_product(s, s)
  do j = 1, n, 5
    write (*, *) 'column', j
    write (*, '(a, es22.14)') '  s(j)      =', s(j)
  end do
  write (*, '(a, es22.14)') 'a(13, 22)   =', a(m, n)
  write (*, '(a, es22.14)') 'b(7, 11)    =', b(7, 11)

contains

  subroutine report(label, x)
    character(len=*), intent(in) :: label
    real(8), intent(in) :: x(:, :)
    write (*, '(a)') label
    write (*, '(a, es22.14)') '  sum       =', sum(x)
    write (*, '(a, es22.14)') '  maxval    =', maxval(x)
  end subroutine report

end program matrix_subs

subroutine transpose_add(a, b, m, n)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(inout) :: a(m, n)
  real(8), intent(inout) :: b(m, n)
!HPF$ DISTRIBUTE b(BLOCK, *)
  integer :: i, j
  do j = 1, n
    do i = 1, m
      if (j <= m) then
        a(i, j) = a(i, j) + b(j, i)
      else
        a(i, j) = a(i, j) - b(i, j)
      end if
    end do
  end do
  b = 0.5d0 * b
end subroutine transpose_add

subroutine colsum(a, m, n, s)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: s(n)
  integer :: j
  do j = 1, n
    s(j) = sum(a(:, j))
  end do
end subroutine colsum
