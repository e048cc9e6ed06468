! scalar_loops.f90 -- scalar DO loops doing element-by-element work on
! distributed arrays: IF / ELSE IF / ELSE on element values, DO WHILE whose
! condition is a reduction (sum(x) < limit), EXIT and CYCLE, a forward GOTO,
! a loop with a negative step, and a recurrence along a distributed
! dimension, stores to arrays replicated or fixed along a grid dimension,
! and STOP inside a loop. n = 27 on CYCLIC(2) and (BLOCK, BLOCK) arrays.
program spmd_scalar_loops
  implicit none
  integer, parameter :: n = 27, m = 10
  real(8), dimension(n) :: x, y
  real(8), dimension(n, m) :: g
  real(8), dimension(n) :: r
  integer, dimension(n) :: k
  integer :: i, j, iter, nfound
  real(8) :: s, limit
!HPF$ PROCESSORS q(NUMBER_OF_PROCESSORS())
!HPF$ DISTRIBUTE (CYCLIC(2)) ONTO q :: x
!HPF$ DISTRIBUTE (BLOCK) ONTO q :: y
!HPF$ PROCESSORS p(2, 2)
!HPF$ DISTRIBUTE (BLOCK, BLOCK) ONTO p :: g
!HPF$ ALIGN r(i) WITH g(i, *)
!HPF$ ALIGN k(i) WITH g(i, 2)

  do i = 1, n
    if (mod(i, 3) == 0) then
      x(i) = dble(i)
    else if (mod(i, 3) == 1) then
      x(i) = -0.5d0*dble(i)
    else
      x(i) = 1.0d0
    end if
  end do
  print '(a,es22.14)', 'scalar_loops x ', sum(x*dble((/ (i, i = 1, n) /)))

  ! DO WHILE on a reduction
  limit = 500.0d0
  iter = 0
  do while (sum(x) < limit)
    iter = iter + 1
    x = x + abs(x)*0.1d0 + 1.0d0
  end do
  print '(a,i0)', 'scalar_loops iter ', iter
  print '(a,es22.14)', 'scalar_loops x2 ', sum(x)

  ! recurrence along a distributed array, negative step
  y(n) = 1.0d0
  do i = n - 1, 1, -1
    y(i) = 0.5d0*y(i + 1) + x(i)
  end do
  print '(a,es22.14)', 'scalar_loops y ', sum(y)

  ! EXIT and CYCLE with conditions on distributed elements
  nfound = 0
  s = 0.0d0
  do i = 1, n
    if (y(i) < 10.0d0) cycle
    if (x(i) > 60.0d0) exit
    nfound = nfound + 1
    s = s + y(i)
  end do
  print '(a,i0,a,es22.14)', 'scalar_loops found ', nfound, ' ', s

  ! nested DO over a 2-D (BLOCK, BLOCK) array with a forward GOTO
  do j = 1, m
    do i = 1, n
      g(i, j) = dble(i - j)
      if (i + j > 30) goto 10
      if (g(i, j) < 0.0d0) then
        g(i, j) = -g(i, j)*x(i)
      else
        g(i, j) = g(i, j) + y(i)
      end if
10    continue
    end do
  end do
  print '(a,es22.14)', 'scalar_loops g ', sum(g)

  ! search loop that leaves through a GOTO
  j = 0
  do i = 1, n
    if (g(i, 5) > 45.0d0 .and. i > 3) then
      j = i
      goto 20
    end if
  end do
  j = -1
20 continue
  print '(a,i0)', 'scalar_loops first ', j
  ! endless DO left by EXIT on a reduction
  iter = 0
  do
    iter = iter + 1
    g(:, 1 + mod(iter, m)) = g(:, 1 + mod(iter, m))*0.5d0
    if (maxval(g) < 20.0d0 .or. iter > 200) exit
  end do
  print '(a,i0)', 'scalar_loops iter2 ', iter
  print '(a,es22.14)', 'scalar_loops g2 ', sum(g)

  ! element stores to an array replicated along the second grid dimension
  ! and to one fixed at a column; loop bounds and ELSE IF conditions that
  ! read distributed elements and reductions; STOP inside a loop
  forall (i = 1:n) k(i) = mod(i*5, 7)
  r = g(:, 2)
  do i = 1, n
    r(i) = r(i) + dble(k(i))
  end do
  nfound = 0
  do i = 1, k(3) + 2
    if (g(i, 1) > r(2)) then
      nfound = nfound + 1
    else if (sum(g(i, :)) > 10.0d0*dble(i)) then
      nfound = nfound + 10
    else if (maxval(r(1:i)) > 20.0d0) then
      nfound = nfound + 100
    else
      nfound = nfound + 1000
    end if
  end do
  print '(a,i0,1x,i0)', 'scalar_loops branches ', nfound, i
  print '(a,es22.14)', 'scalar_loops r ', sum(r*dble((/ (i, i = 1, n) /)))
  do i = 1, n
    if (k(i) == 0) then
      print '(a,i0)', 'scalar_loops stop at ', i
      stop
    end if
  end do
  print '(a)', 'scalar_loops not reached'
end program spmd_scalar_loops
