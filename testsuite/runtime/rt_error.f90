! rt_error.f90 - libhpfrt test: usage errors end the whole run with status
! 1 and "hpfrt: error: ..." on stderr. The case is the first argument:
!   1  a bad array handle
!   2  a template with two distributed dimensions on a 1-D arrangement
!   3  an overlap shift wider than the ghost cells
!   4  timer regions ended out of order
!   5  hpfrt_abort with a message of the program's
!   6  an INTEGER(8) value out of the default INTEGER's range (hpfrt_i4)
!   7  a gather through a schedule handle the library never gave
!   8  a gather site's key of more values than the library keeps (8)
program rt_error
  implicit none
  integer, external :: hpfrt_lo, hpfrt_i4
  character(len=8) :: arg
  integer :: c, ht, ha, hp, i, hs
  integer(8) :: key(9)
  real(8) :: x(0:11)

  call get_command_argument(1, arg)
  read (arg, *) c
  call hpfrt_init()
  select case (c)
  case (1)
    i = hpfrt_lo(99, 1)
  case (2)
    call hpfrt_procs_new(hp, 1, 'line')
    call hpfrt_procs_dim(hp, 1, 0)
    call hpfrt_procs_commit(hp)
    call hpfrt_tmpl_new(ht, 2, 'grid')
    call hpfrt_tmpl_dim(ht, 1, 1, 10, 1, 0)
    call hpfrt_tmpl_dim(ht, 2, 1, 10, 3, 2)
    call hpfrt_tmpl_commit(ht, hp)
  case (3)
    call block_x(1)
    call hpfrt_overlap_r8(ha, x(0), 1, 2, 0, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
  case (4)
    call hpfrt_region_begin(10)
    call hpfrt_region_begin(20)
    call hpfrt_region_end(10)
  case (5)
    call hpfrt_abort('subscript out of range   ')
  case (6)
    i = hpfrt_i4(int(c, 8) * 1000000000_8)
  case (7)
    call block_x(0)
    hs = 99
    hp = 0
    i = 1
    call hpfrt_gathers_r8(ha, x(0), i, i, x(1), hs, hp, hp)
  case (8)
    hs = 0
    key = 1
    i = 9
    call hpfrt_gkey(hs, key, i)
  end select
  call hpfrt_finalize()

contains

  ! x(1:10), (BLOCK) on a template of its own, g ghost cells each side
  subroutine block_x(g)
    integer, intent(in) :: g
    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, 10, 1, 0)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(ha, ht, 1, 8, 'x')
    call hpfrt_arr_dim(ha, 1, 1, 10, 1, 1, 0, g, g)
    call hpfrt_arr_commit(ha)
  end subroutine block_x

end program rt_error
