! rt_misc.f90 - libhpfrt test: reductions of every type and operator,
! element-wise reductions, MAXLOC/MINLOC ties across processes (first
! occurrence in array element order, processes with no element left out),
! broadcasts from the I/O process, an unmapped array (a full copy on every
! process), handles of freed arrangements, templates and arrays reused (a
! template freed while an array is on it lives until that array is freed),
! a template with no distributed dimension, and nested timer
! regions (the test script checks the HPFRT_PROFILE file). Rank 0 prints
! one PASS or FAIL line per check and "END <failures>" last.
program rt_misc
  implicit none
  integer, external :: hpfrt_nprocs, hpfrt_rank, hpfrt_ioproc
  integer :: np, me, nfail, rep

  call hpfrt_init()
  call hpfrt_init()      ! a second call does nothing
  np = hpfrt_nprocs()
  me = hpfrt_rank()
  nfail = 0
  do rep = 1, 3
    call hpfrt_region_begin(100)
    call hpfrt_region_begin(200)
    call hpfrt_barrier()
    call hpfrt_region_end(200)
    call hpfrt_region_end(100)
  end do
  call hpfrt_region_begin(300)
  call reductions()
  call locs()
  call io()
  call unmapped()
  call handles()
  call hpfrt_region_end(300)
  if (hpfrt_ioproc() == 1) print '(a,i0)', 'END ', nfail
  call hpfrt_finalize()

contains

  include 'report.inc'

  subroutine reductions()
    integer :: i4, bad, k, iv(4)
    integer(8) :: i8, f
    real(4) :: r4
    real(8) :: r8, rv(5)
    complex(4) :: c4
    complex(8) :: c8
    logical :: l4, l4b
    integer, external :: hpfrt_ioproc

    bad = 0
    if ((hpfrt_ioproc() == 1) .neqv. (me == 0)) bad = bad + 1
    i4 = me + 1
    call hpfrt_reduce_i4(i4, 1)
    if (i4 /= np * (np + 1) / 2) bad = bad + 1
    i8 = me + 2
    call hpfrt_reduce_i8(i8, 2)
    f = 1
    do k = 2, np + 1
      f = f * k
    end do
    if (i8 /= f) bad = bad + 1
    i8 = 5000000000_8 + me
    call hpfrt_reduce_i8(i8, 3)
    if (i8 /= 5000000000_8 + np - 1) bad = bad + 1
    r4 = me
    call hpfrt_reduce_r4(r4, 3)
    if (r4 /= np - 1) bad = bad + 1
    r8 = me + 0.5d0
    call hpfrt_reduce_r8(r8, 4)
    if (r8 /= 0.5d0) bad = bad + 1
    i4 = 10 - me
    call hpfrt_reduce_i4(i4, 4)
    if (i4 /= 11 - np) bad = bad + 1
    call report('reduce: SUM, PRODUCT, MAX, MIN of INTEGER and REAL kinds', bad)

    bad = 0
    c8 = cmplx(me, 1, 8)
    call hpfrt_reduce_c8(c8, 1)
    if (c8 /= cmplx(np * (np - 1) / 2, np, 8)) bad = bad + 1
    c4 = (0.0, 1.0)
    call hpfrt_reduce_c4(c4, 2)
    if (abs(c4 - (0.0, 1.0)**np) > 1e-6) bad = bad + 1
    l4 = me /= 1
    call hpfrt_reduce_l4(l4, 5)
    if (l4 .neqv. (np == 1)) bad = bad + 1
    l4 = me == np - 1
    call hpfrt_reduce_l4(l4, 6)
    if (.not. l4) bad = bad + 1
    l4b = .false.
    call hpfrt_reduce_l4(l4b, 6)
    if (l4b) bad = bad + 1
    call report('reduce: COMPLEX SUM and PRODUCT, LOGICAL AND and OR', bad)

    bad = 0
    do k = 1, 5
      rv(k) = k * me
    end do
    call hpfrt_reducev_r8(rv(1), 5, 1)
    do k = 1, 5
      if (rv(k) /= k * (np * (np - 1) / 2)) bad = bad + 1
    end do
    do k = 1, 4
      iv(k) = mod(me + k, np)
    end do
    call hpfrt_reducev_i4(iv(1), 4, 3)
    do k = 1, 4
      if (iv(k) /= np - 1) bad = bad + 1
    end do
    call hpfrt_reducev_i4(iv(1), 0, 1)
    call report('reducev: element-wise SUM and MAX', bad)
  end subroutine reductions

  subroutine locs()
    integer :: bad, loc(2), iv, q
    real(8) :: v
    real(4) :: v4
    integer(8) :: v8

    bad = 0
    ! equal values everywhere: the first occurrence compares the last
    ! index first, so the process with the smallest loc(2) wins
    v = 7
    loc = (/ me + 1, np - me /)
    call hpfrt_reduceloc_r8(v, loc(1), 2, 4)
    if (v /= 7 .or. loc(1) /= np .or. loc(2) /= 1) then
      bad = bad + 1
      print '(a,i0,a,f5.1,2(1x,i0))', 'rank ', me, ': minloc', v, loc
    end if
    ! odd ranks hold the maximum 1, at (10-rank, 3): the highest odd rank
    ! wins; rank 2 has a larger value but no element (loc(1) = 0)
    iv = mod(me, 2)
    loc = (/ 10 - me, 3 /)
    if (me == 2) then
      iv = 1000
      loc(1) = 0
    end if
    call hpfrt_reduceloc_i4(iv, loc(1), 2, 3)
    if (np == 1) then
      if (iv /= 0 .or. loc(1) /= 10 .or. loc(2) /= 3) bad = bad + 1
    else
      q = np - 1
      if (mod(q, 2) == 0) q = q - 1
      if (iv /= 1 .or. loc(1) /= 10 - q .or. loc(2) /= 3) then
        bad = bad + 1
        print '(a,i0,a,3(1x,i0))', 'rank ', me, ': maxloc', iv, loc
      end if
    end if
    ! no process has an element: location 0
    v4 = me
    loc = 0
    call hpfrt_reduceloc_r4(v4, loc(1), 1, 3)
    if (loc(1) /= 0) bad = bad + 1
    v8 = 100 - me
    loc(1) = me + 1
    call hpfrt_reduceloc_i8(v8, loc(1), 1, 4)
    if (v8 /= 101 - np .or. loc(1) /= np) bad = bad + 1
    call report('reduceloc: ties across processes, processes with no element', bad)
  end subroutine locs

  subroutine io()
    integer :: bad, iv(3)
    real(8) :: rv(2)
    complex(8) :: cv
    logical :: lv(2)
    integer(8) :: i8
    integer, external :: hpfrt_ioproc

    bad = 0
    iv = -1
    rv = -1
    cv = (-1d0, -1d0)
    lv = .false.
    i8 = -1
    if (hpfrt_ioproc() == 1) then
      iv = (/ 7, 8, 9 /)
      rv = (/ 1.25d0, -2.5d0 /)
      cv = (3d0, 4d0)
      lv = (/ .true., .false. /)
      i8 = 123456789012_8
    end if
    call hpfrt_bcastio_i4(iv(1), 3)
    call hpfrt_bcastio_r8(rv(1), 2)
    call hpfrt_bcastio_c8(cv, 1)
    call hpfrt_bcastio_l4(lv(1), 2)
    call hpfrt_bcastio_i8(i8, 1)
    if (any(iv /= (/ 7, 8, 9 /))) bad = bad + 1
    if (rv(1) /= 1.25d0 .or. rv(2) /= -2.5d0) bad = bad + 1
    if (cv /= (3d0, 4d0)) bad = bad + 1
    if (.not. lv(1) .or. lv(2)) bad = bad + 1
    if (i8 /= 123456789012_8) bad = bad + 1
    call report('bcastio of INTEGER, REAL, COMPLEX and LOGICAL data', bad)
  end subroutine io

  subroutine handles()
    integer, external :: hpfrt_lo, hpfrt_hi
    integer :: hp, ht, ha, hp1, ht1, ha1, k, bad, lo, hi
    bad = 0
    do k = 1, 1000
      call hpfrt_procs_new(hp, 1, 'q')
      call hpfrt_procs_dim(hp, 1, np)
      call hpfrt_procs_commit(hp)
      call hpfrt_tmpl_new(ht, 1, 't')
      call hpfrt_tmpl_dim(ht, 1, 1, 10 + k, 1, 0)
      call hpfrt_tmpl_commit(ht, hp)
      call hpfrt_arr_new(ha, ht, 1, 8, 'a')
      call hpfrt_arr_dim(ha, 1, 1, 10 + k, 1, 1, 0, 0, 0)
      call hpfrt_arr_commit(ha)
      if (k == 1) then
        hp1 = hp
        ht1 = ht
        ha1 = ha
      end if
      if (hp /= hp1 .or. ht /= ht1 .or. ha /= ha1) bad = bad + 1
      ! freed first, the template lives while the array is on it
      call hpfrt_procs_free(hp)
      call hpfrt_tmpl_free(ht)
      if (hp /= 0 .or. ht /= 0) bad = bad + 1
      lo = hpfrt_lo(ha, 1)
      hi = hpfrt_hi(ha, 1)
      if (np == 1 .and. (lo /= 1 .or. hi /= 10 + k)) bad = bad + 1
      call hpfrt_arr_free(ha)
    end do
    call report('handles of freed arrangements, templates and arrays reused', bad)
  end subroutine handles

  subroutine unmapped()
    integer, external :: hpfrt_lo, hpfrt_hi, hpfrt_nseg, hpfrt_ntrip, hpfrt_present, &
         hpfrt_primary, hpfrt_mine, hpfrt_g2l
    integer :: hu, ht, hr, bad, lp, s, i1, i2, is, l1, ls, i, j, l, k, sum
    real(8), allocatable :: u(:, :)
    integer, allocatable :: w(:)
    integer :: idx(2, 4)
    real(8) :: buf(4), v

    ! u(-2:3, 5:6), not mapped
    call hpfrt_arr_new(hu, 0, 2, 8, 'u')
    call hpfrt_arr_dim(hu, 1, -2, 3, 0, 1, 0, 0, 0)
    call hpfrt_arr_dim(hu, 2, 5, 6, 0, 1, 0, 0, 0)
    call hpfrt_arr_commit(hu)
    bad = 0
    if (hpfrt_lo(hu, 1) /= -2 .or. hpfrt_hi(hu, 1) /= 3 .or. hpfrt_lo(hu, 2) /= 5 .or. &
         hpfrt_hi(hu, 2) /= 6) bad = bad + 1
    if (hpfrt_present(hu) /= 1) bad = bad + 1
    if ((hpfrt_primary(hu) == 1) .neqv. (me == 0)) bad = bad + 1
    if (hpfrt_mine(hu, 1, -2) /= 1 .or. hpfrt_mine(hu, 1, 4) /= 0) bad = bad + 1
    if (hpfrt_g2l(hu, 2, 6) /= 6) bad = bad + 1
    allocate(u(-2:3, 5:6))
    do j = 5, 6
      do i = -2, 3
        u(i, j) = i * 10 + j
      end do
    end do
    ! iterations of 5:-5:-2 whose index i+1 lies in -2:3: i = 1, -1, -3
    call hpfrt_loop(lp, hu, 1, 1, 1, 5, -5, -2)
    if (hpfrt_ntrip(lp) /= 3) bad = bad + 1
    k = 0
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        if (l /= i + 1) bad = bad + 1
        k = k + 1
        l = l + ls
      end do
    end do
    if (k /= 3) bad = bad + 1
    idx = reshape((/ 3, 6, -2, 5, 0, 6, 3, 5 /), (/ 2, 4 /))
    call hpfrt_gather_r8(hu, u(-2, 5), 4, idx(1, 1), buf(1))
    do k = 1, 4
      if (buf(k) /= idx(1, k) * 10 + idx(2, k)) bad = bad + 1
    end do
    call hpfrt_bcast_r8(hu, u(-2, 5), idx(1, 2), v)
    if (v /= -15) bad = bad + 1
    call report('unmapped array: bounds, segments, gather, bcast', bad)
    call hpfrt_arr_free(hu)

    ! a template with no distributed dimension, on the default arrangement
    call hpfrt_tmpl_new(ht, 1, 'r')
    call hpfrt_tmpl_dim(ht, 1, 1, 10, 0, 0)
    call hpfrt_tmpl_commit(ht, 0)
    call hpfrt_arr_new(hr, ht, 1, 4, 'w')
    call hpfrt_arr_dim(hr, 1, 1, 10, 0, 1, 0, 0, 0)
    call hpfrt_arr_commit(hr)
    bad = 0
    if (hpfrt_lo(hr, 1) /= 1 .or. hpfrt_hi(hr, 1) /= 10) bad = bad + 1
    if (hpfrt_present(hr) /= 1 .or. ((hpfrt_primary(hr) == 1) .neqv. (me == 0))) &
         bad = bad + 1
    allocate(w(10))
    call hpfrt_loop(lp, hr, 1, 1, 0, 1, 10, 1)
    sum = 0
    do s = 1, hpfrt_nseg(lp)
      call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
      l = l1
      do i = i1, i2, is
        w(l) = i
        sum = sum + i
        l = l + ls
      end do
    end do
    if (sum /= 55) bad = bad + 1
    call report('template with no distributed dimension: replicated everywhere', bad)
    call hpfrt_arr_free(hr)
  end subroutine unmapped
end program rt_misc
