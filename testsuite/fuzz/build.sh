#!/bin/sh
# build.sh SRCDIR BUILDDIR OUTDIR [LIBS] - the three fuzz targets built with
# clang's libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
# (doc/fuzzing.md): OUTDIR/fuzz_frontend, fuzz_sag and fuzz_predict. The
# sources are compiled again with clang (coverage instrumentation needs
# them); BUILDDIR is a configured and built tree (config.h, the generated
# parser, scanner and built-in SAG). LIBS: what the predictor links besides
# (libffi, libotf2), as configure found them.
set -eu
src=$1 build=$2 out=$3 libs=${4:--lffi}
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null 2>&1 || { echo "build.sh: $CC not found (apt-get install clang)" >&2; exit 1; }
mkdir -p "$out"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 -I$build -I$src/frontend -I$build/frontend -I$src/analysis -I$src/interp -I$src/runtime"
# (in a build in the source tree the generated files are among its .c files)
frontend=$(realpath "$src"/frontend/*.c "$build/frontend/parse.c" "$build/frontend/scan.c" |
           grep -v '/hpfc\.c$' | sort -u)
gen=""
analysis=$(ls "$src"/analysis/*.c)
interp=$(realpath "$src"/interp/*.c "$build/interp/sag_builtin.c" |
         grep -v -e '/hpfpredict\.c$' -e '/stages\.c$' -e '/interact\.c$' | sort -u)
# shellcheck disable=SC2086
$CC $flags $frontend $gen "$src/runtime/hpfmap.c" "$src/testsuite/fuzz/fuzz_frontend.c" \
    -lm -o "$out/fuzz_frontend"
# shellcheck disable=SC2086
$CC $flags $frontend $gen "$src/runtime/hpfmap.c" $interp \
    $analysis "$src/testsuite/fuzz/fuzz_sag.c" $libs -ldl -lm -o "$out/fuzz_sag"
# shellcheck disable=SC2086
$CC $flags $frontend $gen "$src/runtime/hpfmap.c" $interp \
    $analysis "$src/testsuite/fuzz/fuzz_predict.c" $libs -ldl -lm -o "$out/fuzz_predict"
echo "build.sh: $out/fuzz_frontend, $out/fuzz_sag and $out/fuzz_predict"
