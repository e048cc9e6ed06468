! rt_block.f90 - libhpfrt test: 1-D BLOCK arrays on the default arrangement.
! Allocation bounds, local iteration sets, hpfrt_mine and hpfrt_g2l, and
! overlap shifts of width 1, 2 and 3 (neighbour exchange, also next to
! short and empty blocks, and the general fill when a block is narrower
! than the shift), checked against the plain global BLOCK formulas.
! Calls the run time as generated code does: implicit interfaces, arrays
! passed by their first element. Rank 0 prints one PASS or FAIL line per
! check and "END <failures>" last.
program rt_block
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc
  integer :: np, me, nfail

  call hpfrt_init()
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  call shift1d(23, 2, 1, 'BLOCK n=23 ghosts 2, shift 1')
  call shift1d(23, 2, 2, 'BLOCK n=23 ghosts 2, shift 2')
  call shift1d(5, 2, 2, 'BLOCK n=5 (short and empty blocks), shift 2')
  call shift1d(7, 3, 3, 'BLOCK n=7 ghosts 3, shift 3 (general fill on 4 processes)')
  call shift1d(3, 2, 2, 'BLOCK n=3 ghosts 2, shift 2 (blocks of 1)')
  call shift1d(1, 1, 1, 'BLOCK n=1, shift 1')
  call twoshifts()
  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  ! Template t(1:n) BLOCK, array a(1:n) aligned with it, ghosts g on both
  ! sides; fill the owned cells with 10*i, shift by w, check every
  ! allocated position.
  subroutine shift1d(n, g, w, label)
    integer, intent(in) :: n, g, w
    character(*), intent(in) :: label
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_mine, hpfrt_g2l, hpfrt_nseg, &
         hpfrt_ntrip, hpfrt_present, hpfrt_primary
    integer :: ht, ha, lp, k, first, cnt, lo, hi, s, i1, i2, is, l1, ls, i, l, &
         cell, bad, trips, lp2
    real(8), allocatable :: x(:)
    real(8) :: want

    bad = 0
    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, n, 1, 0)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(ha, ht, 1, 8, 'a')
    call hpfrt_arr_dim(ha, 1, 1, n, 1, 1, 0, g, g)
    call hpfrt_arr_commit(ha)
    k = (n + np - 1) / np
    first = me * k + 1
    cnt = max(0, min(n, first + k - 1) - first + 1)
    lo = hpfrt_lo(ha, 1)
    hi = hpfrt_hi(ha, 1)
    if (lo /= 1 - g .or. hi /= max(cnt + g, lo)) then
      bad = bad + 1
      print '(a,i0,a,4(1x,i0))', 'rank ', me, ': bounds', lo, hi, 1 - g, cnt + g
    end if
    if (hpfrt_present(ha) /= 1 .or. hpfrt_primary(ha) /= 1) bad = bad + 1
    allocate(x(lo:hi))
    x = -1
    ! the local iteration set of 1:n
    call hpfrt_loop(lp, ha, 1, 1, 0, 1, n, 1)
    call hpfrt_loop(lp2, ha, 1, 1, 0, 1, n, 1)
    if (lp2 /= lp) bad = bad + 1
    trips = 0
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        if (i < first .or. i >= first + cnt .or. l /= i - first + 1) bad = bad + 1
        if (hpfrt_mine(ha, 1, i) /= 1 .or. hpfrt_g2l(ha, 1, i) /= l) bad = bad + 1
        x(l) = 10 * i
        trips = trips + 1
        l = l + ls
      end do
    end do
    if (trips /= cnt .or. hpfrt_ntrip(lp) /= cnt) then
      bad = bad + 1
      print '(a,i0,a,3(1x,i0))', 'rank ', me, ': trips', trips, hpfrt_ntrip(lp), cnt
    end if
    do i = 1, n
      if ((hpfrt_mine(ha, 1, i) == 1) .neqv. (i >= first .and. i < first + cnt)) &
           bad = bad + 1
    end do
    ! the ghost convention: local index l is cell first + l - 1, also for
    ! the neighbours' cells next to the block
    do i = max(1, first - g), min(n, first + k - 1 + g)
      if (i < first .or. (i >= first + k .and. cnt == k)) then
        if (hpfrt_g2l(ha, 1, i) /= i - first + 1) then
          bad = bad + 1
          print '(a,i0,a,i0,a,i0)', 'rank ', me, ': g2l(', i, ') =', hpfrt_g2l(ha, 1, i)
        end if
      end if
    end do
    call hpfrt_overlap_r8(ha, x(lo), 1, w, w, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
    do l = lo, hi
      cell = first + l - 1
      want = -1
      if (l >= 1 - w .and. l <= cnt + w .and. cell >= 1 .and. cell <= n) want = 10 * cell
      if (x(l) /= want) then
        bad = bad + 1
        print '(a,i0,a,i0,a,f8.1,a,f8.1)', 'rank ', me, ': x(', l, ') =', x(l), &
             ', expected', want
      end if
    end do
    call report(label, bad)
    call hpfrt_arr_free(ha)
    deallocate(x)
  end subroutine shift1d

  ! Two arrays aligned with one template share local indices; shifts of
  ! width 1 then 2 on the same array (integer and logical types).
  subroutine twoshifts()
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg
    integer, parameter :: n = 17
    integer :: ht, ha, hb, lp, k, first, cnt, lo, hi, s, i1, i2, is, l1, ls, i, l, &
         cell, bad
    integer, allocatable :: x(:)
    logical, allocatable :: y(:)
    integer :: want
    logical :: wanty

    bad = 0
    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 0, n + 1, 1, 0)
    call hpfrt_tmpl_commit(ht, 0)
    ! a(1:n) aligned with t(i); b(0:n+1) aligned with t(i), ghosts 2
    call hpfrt_arr_new(ha, ht, 1, 4, 'a')
    call hpfrt_arr_dim(ha, 1, 1, n, 1, 1, 0, 2, 2)
    call hpfrt_arr_commit(ha)
    call hpfrt_arr_new(hb, ht, 1, 4, 'b')
    call hpfrt_arr_dim(hb, 1, 0, n + 1, 1, 1, 0, 2, 2)
    call hpfrt_arr_commit(hb)
    if (hpfrt_lo(ha, 1) /= hpfrt_lo(hb, 1) .or. hpfrt_hi(ha, 1) /= hpfrt_hi(hb, 1)) &
         bad = bad + 1
    k = (n + 2 + np - 1) / np
    first = me * k          ! the template starts at 0
    cnt = max(0, min(n + 1, first + k - 1) - first + 1)
    lo = hpfrt_lo(ha, 1)
    hi = hpfrt_hi(ha, 1)
    allocate(x(lo:hi), y(lo:hi))
    x = -1
    y = .false.
    call hpfrt_loop(lp, ha, 1, 1, 0, 1, n, 1)
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        x(l) = 3 * i
        y(l) = mod(i, 3) == 0
        l = l + ls
      end do
    end do
    call hpfrt_overlap_i4(ha, x(lo), 1, 1, 1, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
    call hpfrt_overlap_l4(hb, y(lo), 1, 1, 1, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
    do l = lo, hi
      cell = first + l - 1
      want = -1
      if (l >= 0 .and. l <= cnt + 1 .and. cell >= 1 .and. cell <= n) want = 3 * cell
      if (x(l) /= want) bad = bad + 1
    end do
    call hpfrt_overlap_i4(ha, x(lo), 1, 2, 2, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
    call hpfrt_overlap_l4(hb, y(lo), 1, 2, 2, (/ -huge(0) /), (/ huge(0) /), (/ 0, 0 /))
    do l = lo, hi
      cell = first + l - 1
      want = -1
      wanty = .false.
      if (cell >= 1 .and. cell <= n) then
        want = 3 * cell
        wanty = mod(cell, 3) == 0
      end if
      if (x(l) /= want .or. (y(l) .neqv. wanty)) then
        bad = bad + 1
        print '(a,i0,a,i0,a,i0,a,i0)', 'rank ', me, ': x(', l, ') =', x(l), &
             ', expected', want
      end if
    end do
    call report('shift 1 then 2 of INTEGER and LOGICAL arrays sharing a template', bad)
    call hpfrt_arr_free(ha)
    call hpfrt_arr_free(hb)
  end subroutine twoshifts
end program rt_block
