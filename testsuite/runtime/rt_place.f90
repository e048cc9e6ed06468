! rt_place.f90 - libhpfrt test: where the grid positions run
! (HPFRT_PLACEMENT). A template of one cell per grid position, 1-D over
! all processes and 2-D over prc(np/2, 2) when np is even: each process
! checks that the cell it holds is the one of its coordinates under the
! placement named in the environment. linear: column-major, the first grid
! dimension fastest; gray (every extent a power of two): the rank's bits
! of each dimension are the Gray code of the coordinate, so the process of
! rank r holds position ungray(r). Rank 0 prints one PASS or FAIL line per
! check and "END <failures>" last.
program rt_place
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc
  integer :: np, me, nfail, gray
  character(len=16) :: pl

  call hpfrt_init()
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  call get_environment_variable('HPFRT_PLACEMENT', pl)
  gray = 0
  if (pl == 'gray') gray = 1
  call line()
  if (mod(np, 2) == 0) call grid2()
  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  integer function ungray(v)
    integer, intent(in) :: v
    integer :: s
    ungray = v
    s = 1
    do while (s < 32)
      ungray = ieor(ungray, ishft(ungray, -s))
      s = 2 * s
    end do
  end function ungray

  logical function pow2(n)
    integer, intent(in) :: n
    pow2 = iand(n, n - 1) == 0
  end function pow2

  ! t(1:np) BLOCK over the default arrangement: the process of rank me
  ! holds cell c + 1, c its coordinate
  subroutine line()
    integer, external :: hpfrt_mine
    integer :: ht, ha, c, i, bad
    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, np, 1, 0)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(ha, ht, 1, 8, 'a')
    call hpfrt_arr_dim(ha, 1, 1, np, 1, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
    c = me
    if (gray == 1 .and. pow2(np)) c = ungray(me)
    bad = 0
    do i = 1, np
      if ((hpfrt_mine(ha, 1, i) == 1) .neqv. (i == c + 1)) then
        bad = bad + 1
        print '(a,i0,a,i0,a,i0)', 'rank ', me, ': cell ', i, ', coordinate ', c
      end if
    end do
    call report('1-D grid of np: the cell of the placed coordinate', bad)
  end subroutine line

  ! t(1:np/2, 1:2) over prc(np/2, 2), BLOCK BLOCK
  subroutine grid2()
    integer, external :: hpfrt_mine
    integer :: hp, ht, ha, e1, c1, c2, i, j, bad
    logical :: here
    e1 = np / 2
    call hpfrt_procs_new(hp, 2, 'prc')
    call hpfrt_procs_dim(hp, 1, e1)
    call hpfrt_procs_dim(hp, 2, 2)
    call hpfrt_procs_commit(hp)
    call hpfrt_tmpl_new(ht, 2, 't2')
    call hpfrt_tmpl_dim(ht, 1, 1, e1, 1, 0)
    call hpfrt_tmpl_dim(ht, 2, 1, 2, 1, 0)
    call hpfrt_tmpl_commit(ht, hp)
    call hpfrt_arr_new(ha, ht, 2, 8, 'b')
    call hpfrt_arr_dim(ha, 1, 1, e1, 1, 1, 0, 0, 0)
    call hpfrt_arr_dim(ha, 2, 1, 2, 2, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
    c1 = mod(me, e1)
    c2 = me / e1
    if (gray == 1 .and. pow2(e1)) then
      c1 = ungray(c1)
      c2 = ungray(c2)
    end if
    bad = 0
    do j = 1, 2
      do i = 1, e1
        here = hpfrt_mine(ha, 1, i) == 1 .and. hpfrt_mine(ha, 2, j) == 1
        if (here .neqv. (i == c1 + 1 .and. j == c2 + 1)) then
          bad = bad + 1
          print '(a,i0,a,2(1x,i0),a,2(1x,i0))', 'rank ', me, ': cell', i, j, &
               ', coordinates', c1, c2
        end if
      end do
    end do
    call report('prc(np/2,2): the cell of the placed coordinates', bad)
  end subroutine grid2

end program rt_place
