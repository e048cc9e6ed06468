      PROGRAM REALGN
C     Arrays realigned against a template inside a time loop, and the
C     template itself redistributed (pghpf style)
      INTEGER N
      PARAMETER (N = 24)
      INTEGER A(N), B(N), C(2*N)
      INTEGER I, IT, S
CHPF$ TEMPLATE T(2*N)
CHPF$ DYNAMIC T, B
CHPF$ DISTRIBUTE T(BLOCK)
CHPF$ ALIGN A(I) WITH T(2*I-1)
CHPF$ ALIGN B(I) WITH T(2*I)
CHPF$ ALIGN C(I) WITH T(I)
      DO I = 1, N
         A(I) = MOD(5*I, 13)
         B(I) = I
      END DO
      DO I = 1, 2*N
         C(I) = 0
      END DO
      DO IT = 1, 4
         IF (IT .EQ. 2) THEN
CHPF$       REALIGN B(I) WITH T(I+N)
         ELSE IF (IT .EQ. 3) THEN
CHPF$       REALIGN B(I) WITH T(N+1-I)
         ELSE
CHPF$       REALIGN B(I) WITH T(2*I)
         END IF
CHPF$    INDEPENDENT
         DO I = 1, N
            B(I) = B(I) + A(N+1-I)
         END DO
         FORALL (I = 1:N) C(2*I) = C(2*I) + B(I)
         FORALL (I = 1:N) C(2*I-1) = A(I) - B(I)
         S = SUM(C)
         PRINT *, 'it', IT, ' sum c', S, ' max b', MAXVAL(B)
      END DO
CHPF$ REDISTRIBUTE T(CYCLIC(2))
      DO IT = 1, 2
CHPF$    REALIGN B(I) WITH T(I)
         B = CSHIFT(B, IT) + A
         WHERE (MOD(B, 2) .EQ. 0) B = B / 2
         PRINT *, 'after shift', IT, SUM(B), MAXLOC(B), MINVAL(B)
      END DO
      PRINT *, (C(I), I = 1, 12)
      END
