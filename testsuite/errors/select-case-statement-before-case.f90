! expect: error: a statement between SELECT CASE and its first CASE, at line 6
program sel_stmt
  implicit none
  integer :: k
  select case (k)
  k = 2
  case (1)
    k = 1
  end select
end program sel_stmt
