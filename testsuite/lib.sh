# lib.sh - shared by the test scripts: TAP output and the paths of the build.
# Sourced with srcdir and top_builddir set by the harness (TESTS_ENVIRONMENT).
: "${srcdir:=.}"
: "${top_builddir:=..}"
HPFC="$top_builddir/hpfc"
tap_n=0
tap_failed=0
ok()      { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok()  { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
skip()    { tap_n=$((tap_n + 1)); echo "ok $tap_n - # SKIP $*"; }
tap_end() { echo "1..$tap_n"; exit 0; }
# diff with the golden file, or rewrite it under UPDATE=1 (make update-tests)
golden() {   # golden NAME GOLDEN ACTUAL
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$3" "$2" && ok "$1 (golden rewritten)"
    elif diff -u "$2" "$3" >"$3.diff" 2>&1; then
        ok "$1"
    else
        not_ok "$1"; sed 's/^/# /' "$3.diff" | head -40
    fi
}
# Runs hpfc under valgrind when it is there (VALGRIND set by configure),
# failing on leaks or bad accesses (exit 99), with a time limit.
run_hpfc() {
    if [ -n "${VALGRIND:-}" ] && [ "${HPF_NO_VALGRIND:-0}" != 1 ]; then
        timeout 120 "$VALGRIND" -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect "$HPFC" "$@"
    else
        timeout 60 "$HPFC" "$@"
    fi
}
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/hpftest.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT
