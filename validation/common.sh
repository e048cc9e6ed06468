# common.sh - shell functions shared by the validation harness
# (validation/validate.sh) and the SPMD benchmark (bench/spmd.sh); sourced,
# not run. They need RTOL (the relative tolerance of `same`).

# rep_param NAME FILE: the PARAMETER that repeats the program's kernel and
# its value in the source ("nrep 10"); nothing for a program without one
rep_param() {
    case "$1" in
        laplace_*) v=maxit ;;
        lfk14|nbody) v=nsteps ;;
        *) v=nrep ;;
    esac
    awk -v v="$v" '{ l = tolower($0) }
        l ~ "parameter *:: *" v " *= *[0-9]+" {
            sub(".*" v " *= *", "", l); sub("[^0-9].*", "", l); print v, l; exit
        }' "$2"
}

# set_params FILE "NAME=VALUE ...": FILE on standard output with the
# PARAMETERs named given those values (the first declaration of each)
set_params() {
    awk -v set="$2" '
        BEGIN { ns = split(set, kv, " ")
                for (k = 1; k <= ns; k++) { split(kv[k], x, "="); nm[k] = x[1]; val[k] = x[2] } }
        {
            for (k = 1; k <= ns; k++) {
                l = tolower($0)
                if (did[k] || l !~ ("parameter *:: *" nm[k] " *= *[-+0-9.]"))
                    continue
                i = match(l, ":: *" nm[k] " *=") + RLENGTH - 1
                rest = substr($0, i + 1)
                sub(/^ *[-+0-9.][-+0-9.eEdD]*(_[A-Za-z0-9]+)?/, "", rest)
                $0 = substr($0, 1, i) " " val[k] rest
                did[k] = 1
            }
            print
        }' "$1"
}

# same OUT REF: the output lines agree (text and integers exactly, reals
# within RTOL)
same() {
    awk -v rtol="$RTOL" '
        function isint(s) { return s ~ /^[-+]?[0-9]+$/ }
        # (an exponent of three digits drops its letter: 8.356+166)
        function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eEdD][-+]?[0-9]+|[-+][0-9][0-9][0-9])?$/ }
        function num(s) { gsub(/[dD]/, "e", s)
                          if (s ~ /[0-9.][-+][0-9][0-9][0-9]$/ && s !~ /[eE]/)
                              s = substr(s, 1, length(s) - 4) "e" substr(s, length(s) - 3)
                          return s + 0 }
        NR == FNR { ref[FNR] = $0; nref = FNR; next }
        {
            n++
            if (!(n in ref)) { bad = 1; exit }
            na = split($0, a, /[ ,]+/); nb = split(ref[n], b, /[ ,]+/)
            if (na != nb) { bad = 1; exit }
            for (i = 1; i <= na; i++) {
                if (a[i] == b[i]) continue
                if (isint(a[i]) || isint(b[i])) { bad = 1; exit }
                if (!isnum(a[i]) || !isnum(b[i])) { bad = 1; exit }
                x = num(a[i]); y = num(b[i]); d = x - y; if (d < 0) d = -d
                m = y < 0 ? -y : y
                if (d > rtol * m && d > 1e-300) { bad = 1; exit }
            }
        }
        END { if (bad || n != nref) exit 1 }' "$2" "$1"
}
