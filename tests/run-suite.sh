#!/usr/bin/env bash
# The whole test suite, as README.md and CI run it:
#   0. clang-format has nothing to change in the hand-written C;
#   1. fetch the real-library fixtures (tests/fixtures/fetch.sh);
#   2. plain build: every ctest label (unit, real, e2e, threads); it
#      makes the stubs of every CUDA ABI, and the suites run each ABI's
#      against that major's real libraries;
#   3. aarch64: the same sources cross-built with Debian's cross compiler
#      (cmake/toolchains/aarch64-linux-gnu.cmake), every suite run under
#      qemu-user against NVIDIA's arm64 libraries (unit, real, threads; the
#      exports compared with step 2's build), and the instructions a
#      forwarded call adds, counted by qemu (bench/run_qemu_count.sh);
#   4. valgrind memcheck over the unit suites and their children (but not
#      the sanitizer_neutral ones, in which no code of ours runs);
#   5. AddressSanitizer + UndefinedBehaviorSanitizer build: every label,
#      but not the suites that check nothing built with it
#      (sanitizer_neutral);
#   6. ThreadSanitizer build: the threads label, only its suites built;
#   7. libFuzzer (clang): every target of tests/fuzz for a fixed time.
# Offline, a fixture that cannot be fetched makes the real-library tests
# print SKIP; with CI=true it is a failure.
#
#   tests/run-suite.sh [--quick]    --quick: step 2 only
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${CUDASTUB_SUITE_BUILD:-$src/build-suite}
fixtures=${CUDASTUB_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudastub-fixtures}
jobs=$(nproc 2>/dev/null || echo 2)
# absolute, as each build is configured from a folder of its own
mkdir -p "$out" "$fixtures"
out=$(cd "$out" && pwd)
fixtures=$(cd "$fixtures" && pwd)
quick=0
[ "${1:-}" = "--quick" ] && quick=1
ci=0
case "${CI:-}" in true | 1) ci=1 ;; esac

# each step says how long the suite has run so far
step() { printf '\n==== %s (at %ds)\n' "$*" "$SECONDS"; }

step "clang-format: hand-written C"
find "$src/include" "$src/stubs" "$src/tools" "$src/tests" "$src/bench" "$src/examples" \
  -path '*/generated' -prune -o \( -name '*.c' -o -name '*.h' \) -print0 |
  xargs -0 clang-format --dry-run --Werror

step "fixtures -> $fixtures"
if ! "$src/tests/fixtures/fetch.sh" "$fixtures"; then
  if [ $ci = 1 ]; then
    echo "run-suite.sh: fixtures could not be fetched, and CI=true requires them" >&2
    exit 1
  fi
  echo "run-suite.sh: fixtures could not be fetched (offline?); real-library tests will SKIP" >&2
fi

# build NAME [--label L] [cmake args...]: configure and build it all, or
# with --label only the suites of ctest label L (and what they depend on)
build() {
  local name=$1 label=""
  shift
  if [ "${1:-}" = "--label" ]; then
    label=$2
    shift 2
  fi
  cmake -S "$src" -B "$out/$name" -DCUDASTUB_FIXTURES="$fixtures" "$@" >/dev/null
  local targets=()
  if [ -n "$label" ]; then
    # a suite's target has the test's name (tests/CMakeLists.txt)
    mapfile -t targets < <(cd "$out/$name" && ctest -N -L "$label" | awk '$1 == "Test" { print $3 }')
    [ ${#targets[@]} -gt 0 ] || {
      echo "run-suite.sh: no suite has label $label" >&2
      return 1
    }
    targets=(--target "${targets[@]}")
  fi
  # a line at each tenth of the build, so that a long one shows it moves;
  # errors and warnings go through whole
  # (pipefail: a failed build fails the suite)
  cmake --build "$out/$name" -j "$jobs" "${targets[@]}" 2>&1 | awk -v name="$name" '
    BEGIN { next_p = 10 }
    /^\[ *[0-9]+%\]/ {
      p = substr($0, 2) + 0
      if (p >= next_p) { printf "  build %s: %d%%\n", name, p; fflush(); next_p = p - p % 10 + 10 }
      next
    }
    /error|warning|Error/ { print; fflush() }'
}

step "plain build: all tests"
# (no launcher: the valgrind step below sets one on this same build)
build plain -DCUDASTUB_TEST_LAUNCHER=
# --verbose: every suite's CUnit run summary goes into the log
(cd "$out/plain" && ctest --verbose -j "$jobs")
[ $quick = 1 ] && exit 0

step "aarch64: cross build, every suite under qemu-user"
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64-static >/dev/null &&
  [ -f "$fixtures/arm64-cunit/.stamp" ]; then
  # CUnit for arm64 is a fixture (arm64-cunit); the native build of step 2
  # is what the cross build's exports must match
  build aarch64 -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/aarch64-linux-gnu.cmake" \
    -DCUDASTUB_TARGET_ROOTS="$fixtures/arm64-cunit" -DCUDASTUB_NATIVE_BUILD="$out/plain"
  (cd "$out/aarch64" && ctest --verbose -j "$jobs")
  "$src/bench/run_qemu_count.sh" "$out/aarch64"
else
  why="no aarch64 cross compiler, qemu-user or arm64 CUnit (apt-get install"
  why="$why gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static; tests/fixtures/fetch.sh)"
  if [ $ci = 1 ]; then
    echo "run-suite.sh: $why, and CI=true requires them" >&2
    exit 1
  fi
  echo "SKIP: aarch64: $why"
fi

step "valgrind memcheck: unit tests and their children"
# The children are this suite's own binaries; the tools tests call (nm,
# objdump, sh) are not ours to check, nor is a set-user-ID copy run through
# setpriv, which valgrind cannot run with its privileges.
vg="valgrind;--error-exitcode=97;--leak-check=full;--errors-for-leak-kinds=definite"
vg="$vg;--trace-children=yes;--trace-children-skip=*/sh,*/nm,*/objdump,*/python3*,*/diff,*/setpriv"
vg="$vg;--suppressions=$src/tests/sanitizers/valgrind.supp"
# The plain build's binaries, each test started under valgrind: only the
# tests' commands change, so nothing is compiled again.
cmake -S "$src" -B "$out/plain" "-DCUDASTUB_TEST_LAUNCHER=$vg" >/dev/null
# --error-exitcode makes any valgrind error, definite leaks included, a
# failed test, so ctest's own exit status carries the verdict.
# (not sanitizer_neutral: no code of ours runs in it under valgrind)
(cd "$out/plain" && ctest --output-on-failure -L unit -LE '^sanitizer_neutral$' -j "$jobs")

step "AddressSanitizer + UndefinedBehaviorSanitizer: all tests but sanitizer_neutral"
build asan -DCUDASTUB_SANITIZE=address,undefined
(cd "$out/asan" &&
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  LSAN_OPTIONS=suppressions=$src/tests/sanitizers/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs" -LE '^sanitizer_neutral$')

step "ThreadSanitizer: thread tests"
build tsan --label threads -DCUDASTUB_SANITIZE=thread
# TSan needs the address-space layout ASLR with many random bits breaks;
# setarch -R turns randomisation off for this run only.
(cd "$out/tsan" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$src/tests/sanitizers/tsan.supp \
  setarch "$(uname -m)" -R ctest --output-on-failure -L threads)

step "libFuzzer: every target for ${CUDASTUB_FUZZ_SECONDS:-15}s (tests/fuzz)"
# a build of its own, with clang; only the fuzz targets are built
CC=clang cmake -S "$src" -B "$out/fuzz" -DCUDASTUB_FIXTURES="$fixtures" -DCUDASTUB_FUZZ=ON \
  -DCUDASTUB_FUZZ_SECONDS="${CUDASTUB_FUZZ_SECONDS:-15}" >/dev/null
cmake --build "$out/fuzz" --target cudastub_fuzzers -j "$jobs" >/dev/null
(cd "$out/fuzz" && CUDASTUB_FUZZ_FINDINGS="$out/fuzz-findings" \
  ctest --output-on-failure -L fuzz -j "$jobs")

step "all suites passed"
