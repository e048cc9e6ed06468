implicit real(8) (a-h, o-z), integer (i-n)
dimension w(3)
common cx, cy
external sub1
intrinsic sqrt
real(kind=8), allocatable :: al(:), al2(:,:)
real(8), save :: sv = 1.5d0
integer :: ierr, u
character(len=*), parameter :: msg = 'hello'
character(len=200) :: longs
cx = 1.0d0; cy = 2.0d0
w = (/ 1.0d0, 2.0d0, 3.0d0 /)
allocate(al(5), al2(2, 3), stat=ierr)
al = 3.0d0
al2 = 1.0d0
call sub1(al, 5, r)
call hello
print *, r, f(), g(), ierr, sv, msg
deallocate(al, al2)
longs = 'This is a very long character constant that is well over one hundred characters long, so the unparser must break it inside the string'
print *, longs
print *, 'This is a very long character constant that is well over one hundred characters long, so the unparser must break it inside the string, it''s "quoted" & more & stuff '
open (unit=10, file='rt-units-scratch1.txt', status='replace')
write (10, '(i5)') 42
close (10)
open (unit=11, file='rt-units-scratch1.txt', status='old')
read (11, *) u
close (11, status='delete')
write (*, *) u, (w(i), i = 1, 3)
write (*, '(a, 3f8.3)') 'w = ', w
print '(a)', 'done'
stop 0
contains
  real(8) function f()
    f = 2.0d0**2 + cx
  end function f
  integer function g() result(res)
    res = 3*2
  end function g
end

subroutine sub1(a, n, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  real(8), intent(out) :: r
  real(8) :: t(2:n+1)
  integer :: i
  do i = 1, n
    a(i) = a(i) + i
  end do
  r = sum(a)
  return
end subroutine sub1

subroutine hello()
  print *, 'hello from hello'
end subroutine hello
