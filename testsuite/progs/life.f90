! Game of life on a torus, 2x2 processors; the board is allocatable,
! redistributed block-block <-> cyclic(2)-cyclic(2) every other
! generation, and handed to external and internal procedures
program life
  implicit none
  integer, parameter :: nr = 20, nc = 16, ngen = 6
  integer, allocatable :: board(:, :), nb(:, :)
  integer :: colpop(nc)
  integer :: i, j, gen, loc(2)
!hpf$ processors p(2, 2)
!hpf$ dynamic board
!hpf$ distribute board(block, block) onto p
!hpf$ align nb(:, :) with board(:, :)
!hpf$ distribute colpop(block)

  allocate(board(nr, nc), nb(nr, nc))
  board = 0
  ! a glider, a blinker and a block
  board(2, 3) = 1
  board(3, 4) = 1
  board(4, 2:4) = 1
  board(10, 8:10) = 1
  board(15:16, 12:13) = 1

  do gen = 1, ngen
    if (mod(gen, 2) == 0) then
!hpf$ redistribute board(cyclic(2), cyclic(2)) onto p
    else
!hpf$ redistribute board(block, block) onto p
    end if
    call neighbours(board, nb)
    call step(board, nb)
    do j = 1, nc
      call popcol(board(:, j), nr, colpop(j))
    end do
    loc = maxloc(nb)
    write(*, '(a,i2,a,i4,a,2i4)') 'gen', gen, ' pop', sum(colpop), &
         ' busiest', loc
  end do
  do i = 1, 5
    write(*, '(16i2)') board(i, :)
  end do
  write(*, '(16i3)') colpop
  deallocate(board, nb)

contains

  subroutine neighbours(b, cnt)
    integer, intent(in) :: b(:, :)
    integer, intent(out) :: cnt(:, :)
    integer :: tmp(size(b, 1), size(b, 2))
    integer :: di, dj
    cnt = 0
    do di = -1, 1
      tmp = cshift(b, di, 1)
      do dj = -1, 1
        if (di /= 0 .or. dj /= 0) cnt = cnt + cshift(tmp, dj, 2)
      end do
    end do
  end subroutine neighbours

end program life

subroutine step(b, cnt)
  implicit none
  integer, parameter :: nr = 20, nc = 16
  integer :: b(nr, nc), cnt(nr, nc)
!hpf$ inherit b, cnt
  integer :: i, j
!hpf$ independent, new(i)
  do j = 1, nc
!hpf$ independent
    do i = 1, nr
      if (cnt(i, j) == 3) then
        b(i, j) = 1
      else if (cnt(i, j) /= 2) then
        b(i, j) = 0
      end if
    end do
  end do
end subroutine step

subroutine popcol(col, n, pop)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: col(n)
  integer, intent(out) :: pop
  pop = sum(col)
end subroutine popcol
