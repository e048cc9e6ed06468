! rt_grid.f90 - libhpfrt test: a 2-D (BLOCK,BLOCK) template on a processor
! arrangement declared prc(2,2), re-formed by the run time when the process
! count is not 4 (as 1x1, 2x1, 3x1). Overlap shifts along both dimensions
! (corners included; neighbour exchange and general fill), a gather of
! every element in reverse order, a transposed alignment, an array
! replicated along the second grid dimension, an array fixed at one cell
! of the first template dimension, bcast, and MAXLOC/MINLOC with ties.
! Checked against the global BLOCK formulas. Rank 0 prints one PASS or
! FAIL line per check and "END <failures>" last.
program rt_grid
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc
  integer, parameter :: m = 9, n = 7
  integer :: np, me, nfail, hp, p1, p2, c1, c2

  call hpfrt_init()
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  call hpfrt_procs_new(hp, 2, 'prc')
  call hpfrt_procs_dim(hp, 1, 2)
  call hpfrt_procs_dim(hp, 2, 2)
  call hpfrt_procs_commit(hp)
  ! the re-formed shape for up to 4 processes: 2x2 kept, otherwise np x 1
  if (np == 4) then
    p1 = 2
    p2 = 2
  else
    p1 = np
    p2 = 1
  end if
  c1 = mod(me, p1)       ! column-major grid: the first dimension fastest
  c2 = me / p1
  call block2d(m, n, 1, 'a(9,7) on prc: shifts of 1 along both dimensions')
  call block2d(4, 3, 3, 'a(4,3) on prc: shifts of 3 (general fill)')
  call others()
  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  ! BLOCK over p processes of cells 1..nn: first cell and count of q
  subroutine blk(nn, p, q, first, cnt)
    integer, intent(in) :: nn, p, q
    integer, intent(out) :: first, cnt
    integer :: k
    k = (nn + p - 1) / p
    first = q * k + 1
    cnt = max(0, min(nn, first + k - 1) - first + 1)
  end subroutine blk

  subroutine block2d(mm, nn, g, label)
    integer, intent(in) :: mm, nn, g
    character(*), intent(in) :: label
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg
    integer :: ht, ha, f1, n1, f2, n2, lo1, hi1, lo2, hi2, lpi, lpj, s, t, &
         i1, i2, is, l1, ls, j1, j2, js, m1, ms, i, j, li, lj, bad, k
    real(8), allocatable :: x(:, :)
    integer, allocatable :: idx(:, :)
    real(8), allocatable :: buf(:)
    real(8) :: want

    call hpfrt_tmpl_new(ht, 2, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, mm, 1, 0)
    call hpfrt_tmpl_dim(ht, 2, 1, nn, 1, 0)
    call hpfrt_tmpl_commit(ht, hp)
    call hpfrt_arr_new(ha, ht, 2, 8, 'a')
    call hpfrt_arr_dim(ha, 1, 1, mm, 1, 1, 0, g, g)
    call hpfrt_arr_dim(ha, 2, 1, nn, 2, 1, 0, g, g)
    call hpfrt_arr_commit(ha)
    call blk(mm, p1, c1, f1, n1)
    call blk(nn, p2, c2, f2, n2)
    lo1 = hpfrt_lo(ha, 1)
    hi1 = hpfrt_hi(ha, 1)
    lo2 = hpfrt_lo(ha, 2)
    hi2 = hpfrt_hi(ha, 2)
    bad = 0
    if (lo1 /= 1 - g .or. hi1 /= max(n1 + g, lo1) .or. lo2 /= 1 - g .or. &
         hi2 /= max(n2 + g, lo2)) bad = bad + 1
    allocate(x(lo1:hi1, lo2:hi2))
    x = -1
    call hpfrt_loop(lpi, ha, 1, 1, 0, 1, mm, 1)
    call hpfrt_loop(lpj, ha, 2, 1, 0, 1, nn, 1)
    do t = 1, hpfrt_nseg(lpj)
      call hpfrt_seg(lpj, t, j1, j2, js, m1, ms)
      lj = m1
      do j = j1, j2, js
        do s = 1, hpfrt_nseg(lpi)
          call hpfrt_seg(lpi, s, i1, i2, is, l1, ls)
          li = l1
          do i = i1, i2, is
            x(li, lj) = i + 100 * j
            li = li + ls
          end do
        end do
        lj = lj + ms
      end do
    end do
    call hpfrt_overlap_r8(ha, x(lo1, lo2), 1, g, g, (/ -huge(0), -huge(0) /), &
         (/ huge(0), huge(0) /), (/ g, g, g, g /))
    call hpfrt_overlap_r8(ha, x(lo1, lo2), 2, g, g, (/ -huge(0), -huge(0) /), &
         (/ huge(0), huge(0) /), (/ g, g, g, g /))
    do lj = lo2, hi2
      do li = lo1, hi1
        i = f1 + li - 1
        j = f2 + lj - 1
        want = -1
        if (i >= 1 .and. i <= mm .and. j >= 1 .and. j <= nn) want = i + 100 * j
        call expect(x(li, lj), want, li, lj, bad)
      end do
    end do
    call report(label, bad)
    ! a box: only the ghost cells it holds are filled (corners not checked)
    do k = 1, 2
      call box(ha, x, lo1, hi1, lo2, hi2, f1, f2, n1, n2, mm, nn, g, k, (/ 4, 3 /), &
           (/ mm - 3, 5 /), label)
    end do
    ! every element, in reverse order of the elements
    allocate(idx(2, mm * nn), buf(mm * nn))
    k = 0
    do j = nn, 1, -1
      do i = mm, 1, -1
        k = k + 1
        idx(1, k) = i
        idx(2, k) = j
      end do
    end do
    call hpfrt_gather_r8(ha, x(lo1, lo2), mm * nn, idx(1, 1), buf(1))
    bad = 0
    do k = 1, mm * nn
      if (buf(k) /= idx(1, k) + 100 * idx(2, k)) bad = bad + 1
    end do
    call report(label // ': gather', bad)
    call hpfrt_arr_free(ha)

  end subroutine block2d

  ! the ghost cells of x (block2d's array) emptied, a shift along
  ! dimension d of the box blo..bhi; a ghost cell along d over owned cells
  ! of the other dimension must hold its value when in the box, -1
  ! otherwise (corners are not checked)
  subroutine box(ha, x, lo1, hi1, lo2, hi2, f1, f2, n1, n2, mm, nn, g, d, blo, bhi, label)
    integer, intent(in) :: ha, lo1, hi1, lo2, hi2, f1, f2, n1, n2, mm, nn, g, d, blo(2), bhi(2)
    real(8), intent(inout) :: x(lo1:hi1, lo2:hi2)
    character(*), intent(in) :: label
    logical :: own1, own2, inbox
    character(80) :: what
    integer :: li, lj, i, j, bad
    real(8) :: want
    do lj = lo2, hi2
      do li = lo1, hi1
        if (li < 1 .or. li > n1 .or. lj < 1 .or. lj > n2) x(li, lj) = -1
      end do
    end do
    call hpfrt_overlap_r8(ha, x(lo1, lo2), d, g, g, blo, bhi, (/ 0, 0, 0, 0 /))
    bad = 0
    do lj = lo2, hi2
      do li = lo1, hi1
        i = f1 + li - 1
        j = f2 + lj - 1
        own1 = li >= 1 .and. li <= n1
        own2 = lj >= 1 .and. lj <= n2
        inbox = i >= blo(1) .and. i <= bhi(1) .and. j >= blo(2) .and. j <= bhi(2)
        if (own1 .and. own2) then
          want = i + 100 * j
        else if ((d == 1 .and. own2) .or. (d == 2 .and. own1)) then
          want = -1
          if (inbox .and. i >= 1 .and. i <= mm .and. j >= 1 .and. j <= nn) want = i + 100 * j
        else
          cycle
        end if
        call expect(x(li, lj), want, li, lj, bad)
      end do
    end do
    write (what, '(a,i0,a,i0,a,i0,a,i0,a,i0,a)') ': box shift along ', d, ' of (', &
         blo(1), ':', bhi(1), ', ', blo(2), ':', bhi(2), ')'
    call report(label // trim(what), bad)
  end subroutine box

  ! x(li, lj) must hold want: otherwise counted in bad, and said
  subroutine expect(v, want, li, lj, bad)
    real(8), intent(in) :: v, want
    integer, intent(in) :: li, lj
    integer, intent(inout) :: bad
    if (v /= want) then
      bad = bad + 1
      print '(a,i0,a,i0,a,i0,a,f8.1,a,f8.1)', 'rank ', me, ': x(', li, ',', lj, &
           ') =', v, ', expected', want
    end if
  end subroutine expect

  subroutine others()
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg, hpfrt_present, &
         hpfrt_primary, hpfrt_ntrip, hpfrt_g2l, hpfrt_mine
    integer :: ht, hd, hb, hc, ha, f1, n1, f2, n2, lp, lpi, lpj, s, t, i1, i2, is, &
         l1, ls, j1, j2, js, m1, ms, i, j, li, lj, bad, k, sum, own5, cnt, v, &
         best, bi, bj
    real(8), allocatable :: d(:, :), a(:, :)
    integer, allocatable :: b(:)
    real(4), allocatable :: c(:)
    integer :: idx(2, m * n), idx1(m), buf(m), loc(2), loc2(2), want(2)
    real(8) :: dbuf(m * n), val, val2
    real(4) :: cbuf(n), cv

    call hpfrt_tmpl_new(ht, 2, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, m, 1, 0)
    call hpfrt_tmpl_dim(ht, 2, 1, n, 1, 0)
    call hpfrt_tmpl_commit(ht, hp)
    call blk(m, p1, c1, f1, n1)
    call blk(n, p2, c2, f2, n2)

    ! d(1:n, 1:m) aligned with t(j, i): transposed
    call hpfrt_arr_new(hd, ht, 2, 8, 'd')
    call hpfrt_arr_dim(hd, 1, 1, n, 2, 1, 0, 0, 0)
    call hpfrt_arr_dim(hd, 2, 1, m, 1, 1, 0, 0, 0)
    call hpfrt_arr_commit(hd)
    bad = 0
    if (hpfrt_hi(hd, 1) /= max(n2, 1) .or. hpfrt_hi(hd, 2) /= max(n1, 1)) bad = bad + 1
    allocate(d(hpfrt_lo(hd, 1):hpfrt_hi(hd, 1), hpfrt_lo(hd, 2):hpfrt_hi(hd, 2)))
    d = -1
    do j = 1, n
      do i = 1, m
        if (hpfrt_mine(hd, 1, j) == 1 .and. hpfrt_mine(hd, 2, i) == 1) &
             d(hpfrt_g2l(hd, 1, j), hpfrt_g2l(hd, 2, i)) = j + 1000 * i
      end do
    end do
    k = 0
    do i = 1, m
      do j = 1, n
        k = k + 1
        idx(1, k) = n + 1 - j
        idx(2, k) = i
      end do
    end do
    call hpfrt_gather_r8(hd, d(1, 1), m * n, idx(1, 1), dbuf(1))
    do k = 1, m * n
      if (dbuf(k) /= idx(1, k) + 1000 * idx(2, k)) bad = bad + 1
    end do
    call report('d(j,i) aligned with t(i,j) (transposed): bounds, gather', bad)

    ! b(1:m) aligned with t(i, *): replicated along the second grid dimension
    call hpfrt_arr_new(hb, ht, 1, 4, 'b')
    call hpfrt_arr_dim(hb, 1, 1, m, 1, 1, 0, 0, 0)
    call hpfrt_arr_commit(hb)
    bad = 0
    if (hpfrt_present(hb) /= 1) bad = bad + 1
    if ((hpfrt_primary(hb) == 1) .neqv. (c2 == 0)) bad = bad + 1
    allocate(b(hpfrt_lo(hb, 1):hpfrt_hi(hb, 1)))
    b = -1
    call hpfrt_loop(lp, hb, 1, 1, 0, 1, m, 1)
    if (hpfrt_ntrip(lp) /= n1) bad = bad + 1
    sum = 0
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      li = l1
      do i = i1, i2, is
        b(li) = 3 * i
        if (hpfrt_primary(hb) == 1) sum = sum + b(li)
        li = li + ls
      end do
    end do
    call hpfrt_reduce_i4(sum, 1)
    if (sum /= 3 * m * (m + 1) / 2) bad = bad + 1
    do k = 1, m
      idx1(k) = m + 1 - k
    end do
    call hpfrt_gather_i4(hb, b(1), m, idx1(1), buf(1))
    do k = 1, m
      if (buf(k) /= 3 * idx1(k)) bad = bad + 1
    end do
    call hpfrt_bcast_i4(hb, b(1), m, v)
    if (v /= 3 * m) bad = bad + 1
    call report('b(i) replicated along grid dimension 2: primary, sum, gather, bcast', bad)

    ! c(1:n) aligned with t(5, j): fixed at cell 5 of template dimension 1
    call hpfrt_arr_new(hc, ht, 1, 4, 'c')
    call hpfrt_arr_dim(hc, 1, 1, n, 2, 1, 0, 0, 0)
    call hpfrt_arr_fix(hc, 1, 5)
    call hpfrt_arr_commit(hc)
    own5 = (5 - 1) / ((m + p1 - 1) / p1)
    bad = 0
    if ((hpfrt_present(hc) == 1) .neqv. (c1 == own5)) bad = bad + 1
    if (hpfrt_primary(hc) /= hpfrt_present(hc)) bad = bad + 1
    allocate(c(hpfrt_lo(hc, 1):hpfrt_hi(hc, 1)))
    c = -1
    call hpfrt_loop(lp, hc, 1, 1, 0, 1, n, 1)
    cnt = 0
    if (c1 == own5) cnt = n2
    if (hpfrt_ntrip(lp) /= cnt) bad = bad + 1
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      li = l1
      do i = i1, i2, is
        c(li) = 2.5 * i
        li = li + ls
      end do
    end do
    call hpfrt_bcast_r4(hc, c(hpfrt_lo(hc, 1)), 3, cv)
    if (cv /= 7.5) bad = bad + 1
    do k = 1, n
      idx1(k) = n + 1 - k
    end do
    call hpfrt_gather_r4(hc, c(hpfrt_lo(hc, 1)), n, idx1(1), cbuf(1))
    do k = 1, n
      if (cbuf(k) /= 2.5 * idx1(k)) bad = bad + 1
    end do
    call report('c(j) fixed at t(5,j): present, segments, bcast, gather', bad)

    ! MAXLOC and MINLOC of a(i,j) = mod(i*j, 5) and mod(i+2*j, 7): many ties
    call hpfrt_arr_new(ha, ht, 2, 8, 'a')
    call hpfrt_arr_dim(ha, 1, 1, m, 1, 1, 0, 0, 0)
    call hpfrt_arr_dim(ha, 2, 1, n, 2, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
    allocate(a(hpfrt_lo(ha, 1):hpfrt_hi(ha, 1), hpfrt_lo(ha, 2):hpfrt_hi(ha, 2)))
    bad = 0
    call hpfrt_loop(lpi, ha, 1, 1, 0, 1, m, 1)
    call hpfrt_loop(lpj, ha, 2, 1, 0, 1, n, 1)
    val = -1d30
    loc = 0
    val2 = 1d30
    loc2 = 0
    do t = 1, hpfrt_nseg(lpj)
      call hpfrt_seg(lpj, t, j1, j2, js, m1, ms)
      lj = m1
      do j = j1, j2, js
        do s = 1, hpfrt_nseg(lpi)
          call hpfrt_seg(lpi, s, i1, i2, is, l1, ls)
          li = l1
          do i = i1, i2, is
            a(li, lj) = mod(i * j, 5)
            if (a(li, lj) > val) then
              val = a(li, lj)
              loc = (/ i, j /)
            end if
            if (mod(i + 2 * j, 7) < val2) then
              val2 = mod(i + 2 * j, 7)
              loc2 = (/ i, j /)
            end if
            li = li + ls
          end do
        end do
        lj = lj + ms
      end do
    end do
    call hpfrt_reduceloc_r8(val, loc(1), 2, 3)
    call hpfrt_reduceloc_r8(val2, loc2(1), 2, 4)
    ! the first occurrences in array element order
    best = -1
    bi = 0
    bj = 0
    do j = 1, n
      do i = 1, m
        if (mod(i * j, 5) > best) then
          best = mod(i * j, 5)
          bi = i
          bj = j
        end if
      end do
    end do
    want = (/ bi, bj /)
    if (val /= best .or. any(loc /= want)) then
      bad = bad + 1
      print '(a,i0,a,f5.1,2(1x,i0))', 'rank ', me, ': maxloc', val, loc
    end if
    best = 100
    do j = 1, n
      do i = 1, m
        if (mod(i + 2 * j, 7) < best) then
          best = mod(i + 2 * j, 7)
          bi = i
          bj = j
        end if
      end do
    end do
    want = (/ bi, bj /)
    if (val2 /= best .or. any(loc2 /= want)) then
      bad = bad + 1
      print '(a,i0,a,f5.1,2(1x,i0))', 'rank ', me, ': minloc', val2, loc2
    end if
    call report('MAXLOC and MINLOC with ties: the first occurrence', bad)
    call hpfrt_arr_free(ha)
    call hpfrt_arr_free(hb)
    call hpfrt_arr_free(hc)
    call hpfrt_arr_free(hd)
  end subroutine others
end program rt_grid
