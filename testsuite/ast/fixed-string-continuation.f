      PROGRAM T
      CHARACTER*20 S
      S = 'AB
     &CD'
      PRINT *, '[', S, ']'
      END
