program deep
  integer :: i, s
  s = 0
  if (s >= 0) then
    if (s >= 0) then
      if (s >= 0) then
        if (s >= 0) then
          if (s >= 0) then
            if (s >= 0) then
              if (s >= 0) then
                if (s >= 0) then
                  if (s >= 0) then
                    if (s >= 0) then
                      if (s >= 0) then
                        if (s >= 0) then
                          if (s >= 0) then
                            if (s >= 0) then
                              if (s >= 0) then
                                if (s >= 0) then
                                  if (s >= 0) then
                                    if (s >= 0) then
                                      if (s >= 0) then
                                        if (s >= 0) then
                                          if (s >= 0) then
                                            if (s >= 0) then
                                              if (s >= 0) then
                                                if (s >= 0) then
                                                  if (s >= 0) then
                                                    if (s >= 0) then
                                                      if (s >= 0) then
                                                        if (s >= 0) then
                                                          if (s >= 0) then
                                                            if (s >= 0) then
                                                              if (s >= 0) then
                                                                if (s >= 0) then
                                                                  if (s >= 0) then
                                                                    if (s >= 0) then
                                                                      if (s >= 0) then
s = s + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26 + 27 + 28 + 29 + 30 + 31
print *, 'a fairly long string constant that is sixty-five characters or so long'
12345 continue
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
end if
print *, s
end program deep
