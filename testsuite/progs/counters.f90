! counters.f90 -- the bookkeeping loops of a data-analysis code: counts
! made under IF in DO loops, loops whose trip count is such a count, and
! search loops left early by EXIT.
!
! A signal v(n) (a sum of two waves plus a drift) is scanned:
!   1. a scalar loop counts the samples above a threshold and records
!      their indices in a replicated list idx(1:nhit);
!   2. a loop over k = 1..nhit (trip count = the counter) accumulates a
!      weighted sum of the recorded samples and counts the runs of
!      consecutive indices;
!   3. a search loop finds the first sample below a floor and EXITs;
!      a second one, backwards, the last local maximum;
!   4. a DO WHILE counts the halvings needed to bring the spread of the
!      signal under a tolerance (an integer iteration, data dependent);
!   5. the same count as 1 by COUNT, as a check.
! Mapping: v and w aligned with a template of n, (BLOCK); idx replicated.
! Output: the counts and positions (I10) and the weighted sum.

program counters
  implicit none
  integer, parameter :: n = 500
  real(8), parameter :: thresh = 1.2d0
  real(8), parameter :: floor0 = -1.5d0
  real(8), dimension(n) :: v, w
  integer, dimension(n) :: idx
  real(8) :: ws, spread, tol
  integer :: i, k, nhit, nruns, ifirst, ilastmax, nhalf, ncheck
!HPF$ PROCESSORS pq(NUMBER_OF_PROCESSORS())
!HPF$ TEMPLATE ts(n)
!HPF$ DISTRIBUTE ts(BLOCK) ONTO pq
!HPF$ ALIGN v(i) WITH ts(i)
!HPF$ ALIGN w(i) WITH ts(i)

  forall (i = 1:n) v(i) = sin(0.05d0*dble(i)) + 0.8d0*cos(0.13d0*dble(i))   &
                          - 0.002d0*dble(i) + 0.5d0
  forall (i = 1:n) w(i) = 1.0d0 + dble(mod(i, 3))

  ! 1. count and record the samples above the threshold
  nhit = 0
  idx = 0
  do i = 1, n
    if (v(i) > thresh) then
      nhit = nhit + 1
      idx(nhit) = i
    end if
  end do

  ! 2. a loop whose trip count is the counter
  ws = 0.0d0
  nruns = 0
  do k = 1, nhit
    ws = ws + w(idx(k))*v(idx(k))
    if (k == 1) then
      nruns = 1
    else if (idx(k) /= idx(k - 1) + 1) then
      nruns = nruns + 1
    end if
  end do

  ! 3. search loops with an early exit
  ifirst = 0
  do i = 1, n
    if (v(i) < floor0) then
      ifirst = i
      exit
    end if
  end do
  ilastmax = 0
  do i = n - 1, 2, -1
    if (v(i) > v(i - 1) .and. v(i) >= v(i + 1)) then
      ilastmax = i
      exit
    end if
  end do

  ! 4. halvings of the spread until it is under the tolerance
  spread = maxval(v) - minval(v)
  tol = 1.0d-3
  nhalf = 0
  do while (spread > tol)
    spread = 0.5d0*spread
    nhalf = nhalf + 1
  end do

  ! 5. the count again, by the intrinsic
  ncheck = count(v > thresh)

  print '(a,i10)', 'counters samples above threshold ', nhit
  print '(a,i10)', 'counters runs ', nruns
  print '(a,i10)', 'counters first below floor ', ifirst
  print '(a,i10)', 'counters last local maximum ', ilastmax
  print '(a,i10)', 'counters halvings ', nhalf
  print '(a,i10)', 'counters count check ', ncheck - nhit
  print '(a,es22.14)', 'counters weighted sum ', ws
end program counters
