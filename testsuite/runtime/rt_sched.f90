! rt_sched.f90 - libhpfrt test: gathers through kept schedules
! (hpfrt_gathers_T). A schedule must give the values the array holds now,
! be made again when the index vector changes on one process only, when
! the array is laid out again, and survive a site's cycling through more
! index vectors than it keeps (16), and keep a schedule per key at a site
! keyed by a scalar (hpfrt_gkey). Every result is checked against the
! value at the global index, as an uncached gather would give it.
! Rank 0 prints one PASS or FAIL line per check and "END <failures>".
program rt_sched
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc, hpfrt_kept
  integer, parameter :: n = 40, m = 30
  integer :: np, me, nfail, ht, ha, lo, hi, hs, hi2, hk, k, rep, v, bad, cnt, zero, one, two
  integer(8) :: key(1)
  integer :: idx(m), dummy(1)
  real(8) :: buf(m)
  real(8), allocatable :: x(:)

  call hpfrt_init()
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  zero = 0
  one = 1
  two = 2

  ! a (BLOCK) array of n elements: x(i) = 1000*rep + i at repetition rep
  call layout(1, 0)

  ! a site whose index vector is not invariant: the same vector three
  ! times (the schedule kept), the values changed in between
  hs = 0
  bad = 0
  do k = 1, m
    idx(k) = mod(me * 7 + 3 * k, n) + 1
  end do
  do rep = 1, 3
    call fill(rep)
    bad = bad + gathered(m, rep, hs, zero, zero)
  end do
  if (hs <= 0) bad = bad + 1
  call report('one index vector three times, the values changed', bad)

  ! the vector changes on rank 0 only: every process makes the schedule
  ! again (the others answer rank 0's new requests)
  bad = 0
  if (me == 0) then
    do k = 1, m
      idx(k) = n + 1 - k
    end do
  end if
  do rep = 4, 5
    call fill(rep)
    bad = bad + gathered(m, rep, hs, zero, zero)
  end do
  call report('a vector changed on rank 0 only', bad)

  ! 20 vectors in turn, twice: more than the 16 a site keeps
  bad = 0
  do rep = 1, 40
    v = mod(rep - 1, 20)
    do k = 1, m
      idx(k) = mod(me + v * k + 5 * v, n) + 1
    end do
    call fill(rep)
    bad = bad + gathered(m, rep, hs, zero, zero)
  end do
  call report('20 index vectors in turn, twice', bad)

  ! then 4 vectors in turn (kept), of different lengths, one empty on
  ! odd ranks
  bad = 0
  do rep = 1, 12
    v = mod(rep - 1, 4)
    cnt = 5 * v
    if (v == 3 .and. mod(me, 2) == 1) cnt = 0
    do k = 1, cnt
      idx(k) = mod(11 * k + v + me, n) + 1
    end do
    call fill(rep)
    bad = bad + gathered(cnt, rep, hs, zero, zero)
  end do
  call report('4 vectors of different lengths in turn, some empty', bad)

  ! a site the compiler proved invariant (the loop's home array: x's)
  hi2 = 0
  bad = 0
  do k = 1, m
    idx(k) = mod(2 * k + 13, n) + 1
  end do
  do rep = 1, 3
    call fill(rep)
    bad = bad + gathered(m, rep, hi2, ha, one)
  end do
  call report('an invariant site three times', bad)

  ! hpfrt_kept gives its count; a call that did not record the vector
  ! (inv = 2, idx not read) gathers the same elements
  bad = 0
  if (hpfrt_kept(hi2, ha, ha) /= m) bad = bad + 1
  if (hpfrt_kept(0, ha, ha) /= -1) bad = bad + 1
  do rep = 4, 5
    call fill(rep)
    dummy = -99
    buf = -1
    call hpfrt_gathers_r8(ha, x(lo), hpfrt_kept(hi2, ha, ha), dummy(1), buf(1), hi2, ha, two)
    bad = bad + check(m, rep)
  end do
  call report('hpfrt_kept and a call with the vector not recorded', bad)

  ! a site keyed by a scalar (hpfrt_gkey): the index vector is a function
  ! of key(1) on every process; three keys in turn, each kept, and the
  ! vector not recorded (inv = 2) where hpfrt_kept finds it for the key
  hk = 0
  bad = 0
  do rep = 1, 9
    key(1) = mod(rep, 3) * 5
    do k = 1, m
      idx(k) = mod(3 * k + int(key(1)) + me, n) + 1
    end do
    call fill(rep)
    call hpfrt_gkey(hk, key, one)
    if (rep > 3 .and. hpfrt_kept(hk, ha, ha) /= m) bad = bad + 1
    if (rep <= 3 .and. hpfrt_kept(hk, ha, ha) /= -1) bad = bad + 1
    if (rep > 3) then
      buf = -1
      dummy = -99
      call hpfrt_gathers_r8(ha, x(lo), m, dummy(1), buf(1), hk, ha, two)
      bad = bad + check(m, rep)
    else
      bad = bad + gathered(m, rep, hk, ha, one)
    end if
  end do
  ! a key no schedule was made for
  key(1) = 7
  call hpfrt_gkey(hk, key, one)
  if (hpfrt_kept(hk, ha, ha) /= -1) bad = bad + 1
  call report('a site keyed by a scalar, three keys in turn', bad)

  ! the array laid out again, CYCLIC(3): both sites make their schedules
  ! again for the new layout
  call relayout(3)
  bad = 0
  do rep = 1, 3
    call fill(rep)
    bad = bad + gathered(m, rep, hi2, ha, one)
    bad = bad + gathered(m, rep, hs, zero, zero)
  end do
  call report('the array laid out again (CYCLIC(3))', bad)
  bad = 0
  call relayout(2)
  if (hpfrt_kept(hi2, ha, ha) /= -1) bad = bad + 1
  call report('hpfrt_kept after a layout: no schedule', bad)

  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  ! x on a template of n cells, fmt 1 (BLOCK) or 3 (CYCLIC(kb))
  subroutine layout(fmt, kb)
    integer, intent(in) :: fmt, kb
    integer, external :: hpfrt_lo, hpfrt_hi
    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, n, fmt, kb)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(ha, ht, 1, 8, 'x')
    call hpfrt_arr_dim(ha, 1, 1, n, 1, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
    lo = hpfrt_lo(ha, 1)
    hi = hpfrt_hi(ha, 1)
    if (allocated(x)) deallocate(x)
    allocate(x(lo:hi))
  end subroutine layout

  subroutine relayout(kb)
    integer, intent(in) :: kb
    call hpfrt_arr_free(ha)
    call hpfrt_tmpl_free(ht)
    call layout(3, kb)
  end subroutine relayout

  subroutine fill(rep)
    integer, intent(in) :: rep
    integer, external :: hpfrt_mine, hpfrt_g2l
    integer :: i
    x = -5
    do i = 1, n
      if (hpfrt_mine(ha, 1, i) == 1) x(hpfrt_g2l(ha, 1, i)) = 1000.0d0 * rep + i
    end do
  end subroutine fill

  ! cnt elements at idx through the schedule of site hs (home array hh,
  ! inv as hpfrt_gathers_T), checked against repetition rep's values
  integer function gathered(cnt, rep, site, hh, inv)
    integer, intent(in) :: cnt, rep, hh, inv
    integer, intent(inout) :: site
    buf = -1
    call hpfrt_gathers_r8(ha, x(lo), cnt, idx(1), buf(1), site, hh, inv)
    gathered = check(cnt, rep)
  end function gathered

  integer function check(cnt, rep)
    integer, intent(in) :: cnt, rep
    integer :: j
    check = 0
    do j = 1, cnt
      if (buf(j) /= 1000.0d0 * rep + idx(j)) then
        check = check + 1
        print '(a,i0,a,i0,a,f10.1)', 'rank ', me, ': buf(', j, ') = ', buf(j)
      end if
    end do
  end function check

end program rt_sched
