! flow_state.f90 -- control flow and state the predictor must follow: a
! GOTO out of a block IF, and out of a logical IF, to a label inside a
! loop made of labels and GOTOs; a counter kept in a called subroutine
! (DATA, so SAVE) that decides a PRINT on its fifth call, from a DO loop
! whose own statements repeat; a module's mapped ALLOCATABLE array
! allocated by the main program and used by the module's procedure, and
! an unmapped one allocated by one of its procedures, used by another; an
! ALLOCATABLE array allocated anew, larger, with a WHERE over it. n = 6.
module flow_state_m
  implicit none
  real(8), allocatable :: t(:), r(:)
!HPF$ DISTRIBUTE t(BLOCK)
contains
  subroutine init(m)
    integer, intent(in) :: m
    allocate (r(m))
    r = 0.5d0
  end subroutine init
  subroutine step(s)
    real(8), intent(in) :: s
    t = t + s
    r = r + s
  end subroutine step
end module flow_state_m

program spmd_flow_state
  use flow_state_m
  implicit none
  integer, parameter :: n = 6
  real(8), allocatable :: g(:)
  integer :: k, m, pass

  k = 0
20 k = k + 1
  if (k == 1) then
    go to 50
  end if
  print '(a,i3)', 'before 50 ', k
50 print '(a,i3)', 'at 50 ', k
  if (k == 2) go to 60
  print '(a,i3)', 'not 2 ', k
60 if (k < 3) go to 20
  print '(a,i3)', 'after the loop ', k

  do k = 1, 7
    call counter()
  end do

  allocate (t(n))
  t = 1.0d0
  call init(n + 2)
  do k = 1, 3
    call step(dble(k))
  end do
  print '(a,2es22.14)', 'module arrays ', sum(t), sum(r)

  do pass = 1, 3
    m = n*pass
    allocate (g(m))
    g = dble(pass) - 1.5d0
    where (g > 0.0d0)
      g = -g
    elsewhere
      g = 2.0d0
    end where
    print '(a,i3,es22.14)', 'where ', m, sum(g)
    deallocate (g)
  end do
end program spmd_flow_state

subroutine counter()
  implicit none
  integer :: calls
  data calls /0/
  calls = calls + 1
  if (calls == 5) print '(a,i3)', 'fifth call ', calls
end subroutine counter
