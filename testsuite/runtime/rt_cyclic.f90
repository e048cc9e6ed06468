! rt_cyclic.f90 - libhpfrt test: CYCLIC(3) on the default arrangement.
! Local iteration sets of several triplets and subscripts (forward,
! backward, strided, a*i+b, constant, partly outside the template), their
! memoization, a gather of a reversed index list and of repeated indices,
! a broadcast of one element, and an array aligned with stride 2
! (a(i) with t(2*i-1)). Checked against the global CYCLIC(k) formulas.
! Rank 0 prints one PASS or FAIL line per check and "END <failures>".
program rt_cyclic
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc
  integer, parameter :: n = 40, kk = 3
  integer :: np, me, nfail

  call hpfrt_init()
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  call cyclic_tests()
  call stride2_tests()
  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  ! CYCLIC(k) on P processes, cells 1..m: owner and local index of cell t
  integer function owner(t, k, p)
    integer, intent(in) :: t, k, p
    owner = mod((t - 1) / k, p)
  end function owner

  integer function local(t, k, p)
    integer, intent(in) :: t, k, p
    local = ((t - 1) / (k * p)) * k + mod(t - 1, k) + 1
  end function local

  ! Walks the iteration set of lo:hi:st for subscript a*i+b of dimension 1
  ! of array ha (aligned with cell alpha*index+beta of a CYCLIC(kk)
  ! template of m cells); every owned iteration must be found exactly once
  ! (counted over all processes), with the right local index.
  integer function walk(ha, a, b, lo, hi, st, alpha, beta, m)
    integer, intent(in) :: ha, a, b, lo, hi, st, alpha, beta, m
    integer, external :: hpfrt_nseg, hpfrt_ntrip
    integer :: lp, lp2, s, i1, i2, is, l1, ls, i, l, t, bad, trips, j, ntr
    integer :: hits(0:200)
    bad = 0
    hits = 0
    trips = 0
    call hpfrt_loop(lp, ha, 1, a, b, lo, hi, st)
    call hpfrt_loop(lp2, ha, 1, a, b, lo, hi, st)
    if (lp2 /= lp) bad = bad + 1
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      if (is <= 0 .or. i2 < i1) bad = bad + 1
      l = l1
      do i = i1, i2, is
        t = alpha * (a * i + b) + beta
        if (t < 1 .or. t > m) then
          bad = bad + 1
        else if (owner(t, kk, np) /= me .or. local(t, kk, np) /= l) then
          bad = bad + 1
          print '(a,i0,a,i0,a,i0,a,i0)', 'rank ', me, ': i=', i, ' l=', l, ' want ', &
               local(t, kk, np)
        end if
        j = (i - lo) / st
        if (j < 0 .or. j > 200 .or. lo + j * st /= i) then
          bad = bad + 1
        else
          hits(j) = hits(j) + 1
        end if
        trips = trips + 1
        l = l + ls
      end do
    end do
    if (trips /= hpfrt_ntrip(lp)) bad = bad + 1
    call hpfrt_reducev_i4(hits(0), 201, 1)
    ntr = 0
    if ((hi - lo) / st >= 0) ntr = (hi - lo) / st + 1
    do j = 0, 200
      i = lo + j * st
      t = alpha * (a * i + b) + beta
      if (j < ntr .and. t >= 1 .and. t <= m) then
        if (hits(j) /= 1) bad = bad + 1
      else if (hits(j) /= 0) then
        bad = bad + 1
      end if
    end do
    walk = bad
  end function walk

  subroutine cyclic_tests()
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg, hpfrt_mine, hpfrt_g2l
    integer :: ht, ha, lo, hi, cnt, i, s, i1, i2, is, l1, ls, l, lp, bad, k, val
    integer, allocatable :: x(:)
    integer :: idx(n), buf(n), idx5(5), buf5(5)

    call hpfrt_tmpl_new(ht, 1, 't')
    call hpfrt_tmpl_dim(ht, 1, 1, n, 3, kk)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(ha, ht, 1, 4, 'a')
    call hpfrt_arr_dim(ha, 1, 1, n, 1, 1, 0, 0, 0)
    call hpfrt_arr_commit(ha)
    bad = 0
    cnt = 0
    do i = 1, n
      if (owner(i, kk, np) == me) cnt = cnt + 1
      if ((hpfrt_mine(ha, 1, i) == 1) .neqv. (owner(i, kk, np) == me)) bad = bad + 1
      if (owner(i, kk, np) == me .and. hpfrt_g2l(ha, 1, i) /= local(i, kk, np)) &
           bad = bad + 1
    end do
    lo = hpfrt_lo(ha, 1)
    hi = hpfrt_hi(ha, 1)
    if (lo /= 1 .or. hi /= max(cnt, 1)) bad = bad + 1
    call report('CYCLIC(3) n=40: bounds, hpfrt_mine, hpfrt_g2l', bad)

    call report('segments of 1:40', walk(ha, 1, 0, 1, n, 1, 1, 0, n))
    call report('segments of 40:1:-1', walk(ha, 1, 0, n, 1, -1, 1, 0, n))
    call report('segments of 2:40:5', walk(ha, 1, 0, 2, n, 5, 1, 0, n))
    call report('segments of 38:3:-4', walk(ha, 1, 0, 38, 3, -4, 1, 0, n))
    call report('segments of subscript 2*i+1, i = 0:19', walk(ha, 2, 1, 0, 19, 1, 1, 0, n))
    call report('segments of subscript 41-i, i = 1:40', walk(ha, -1, n + 1, 1, n, 1, 1, 0, n))
    call report('segments of subscript 17 (constant), i = 1:5', walk(ha, 0, 17, 1, 5, 1, 1, 0, n))
    call report('segments of 1:60 (partly outside the template)', walk(ha, 1, 0, -9, 60, 1, 1, 0, n))
    call report('segments of an empty triplet', walk(ha, 1, 0, 5, 4, 1, 1, 0, n))

    ! fill a(i) = i*i through the iteration set, gather in reverse
    allocate(x(lo:hi))
    x = -1
    call hpfrt_loop(lp, ha, 1, 1, 0, 1, n, 1)
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        x(l) = i * i
        l = l + ls
      end do
    end do
    do k = 1, n
      idx(k) = n + 1 - k
    end do
    buf = -7
    call hpfrt_gather_i4(ha, x(lo), n, idx(1), buf(1))
    bad = 0
    do k = 1, n
      if (buf(k) /= (n + 1 - k)**2) then
        bad = bad + 1
        print '(a,i0,a,i0,a,i0)', 'rank ', me, ': buf(', k, ') =', buf(k)
      end if
    end do
    call report('gather of a reversed index list', bad)
    idx5 = (/ 5, 5, 40, 1, 22 /)
    buf5 = -7
    call hpfrt_gather_i4(ha, x(lo), 5, idx5(1), buf5(1))
    bad = 0
    do k = 1, 5
      if (buf5(k) /= idx5(k)**2) bad = bad + 1
    end do
    ! a gather of nothing is still collective
    call hpfrt_gather_i4(ha, x(lo), 0, idx5(1), buf5(1))
    call report('gather of repeated indices, and of none', bad)
    val = -1
    call hpfrt_bcast_i4(ha, x(lo), 17, val)
    bad = 0
    if (val /= 289) bad = 1
    call hpfrt_bcast_i4(ha, x(lo), 40, val)
    if (val /= 1600) bad = bad + 1
    call report('bcast of a(17) and a(40)', bad)
    call hpfrt_arr_free(ha)
  end subroutine cyclic_tests

  ! b(1:20) aligned with t2(2*i-1), t2(1:40) CYCLIC(3): storage by cell
  subroutine stride2_tests()
    integer, parameter :: m = 20
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg, hpfrt_mine, hpfrt_g2l
    integer :: ht, hb, lo, hi, i, s, i1, i2, is, l1, ls, l, lp, bad, k, cnt
    real(8), allocatable :: y(:)
    integer :: idx(m)
    real(8) :: buf(m), v

    call hpfrt_tmpl_new(ht, 1, 't2')
    call hpfrt_tmpl_dim(ht, 1, 1, 2 * m, 3, kk)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(hb, ht, 1, 8, 'b')
    call hpfrt_arr_dim(hb, 1, 1, m, 1, 2, -1, 0, 0)
    call hpfrt_arr_commit(hb)
    bad = 0
    cnt = 0
    do i = 1, 2 * m
      if (owner(i, kk, np) == me) cnt = cnt + 1
    end do
    lo = hpfrt_lo(hb, 1)
    hi = hpfrt_hi(hb, 1)
    if (lo /= 1 .or. hi /= max(cnt, 1)) bad = bad + 1
    do i = 1, m
      if ((hpfrt_mine(hb, 1, i) == 1) .neqv. (owner(2 * i - 1, kk, np) == me)) &
           bad = bad + 1
      if (owner(2 * i - 1, kk, np) == me .and. &
           hpfrt_g2l(hb, 1, i) /= local(2 * i - 1, kk, np)) bad = bad + 1
    end do
    bad = bad + walk(hb, 1, 0, 1, m, 1, 2, -1, 2 * m)
    bad = bad + walk(hb, -2, 21, 1, 10, 1, 2, -1, 2 * m)
    call report('b(i) aligned with t2(2*i-1): bounds, ownership, segments', bad)
    allocate(y(lo:hi))
    y = -1
    call hpfrt_loop(lp, hb, 1, 1, 0, 1, m, 1)
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        y(l) = i + 0.5d0
        l = l + ls
      end do
    end do
    do k = 1, m
      idx(k) = m + 1 - k
    end do
    call hpfrt_gather_r8(hb, y(lo), m, idx(1), buf(1))
    bad = 0
    do k = 1, m
      if (buf(k) /= idx(k) + 0.5d0) bad = bad + 1
    end do
    call hpfrt_bcast_r8(hb, y(lo), 7, v)
    if (v /= 7.5d0) bad = bad + 1
    call report('b(i) aligned with t2(2*i-1): gather and bcast', bad)
    call hpfrt_arr_free(hb)
  end subroutine stride2_tests
end program rt_cyclic
