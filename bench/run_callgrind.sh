#!/usr/bin/env bash
# Counts, with callgrind, the instructions of N forwarded calls through the
# stub against N direct calls to NVIDIA's libnvrtc, and prints the extra
# instructions per call. The cost contract allows at most 2.
#
#   bench/run_callgrind.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-100000}
command -v valgrind >/dev/null || { echo "run_callgrind.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$build/bench/bench_call_direct" ] || {
  echo "run_callgrind.sh: $build/bench/bench_call_direct missing (no real libnvrtc at build time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # binary -> instructions executed inside bench_loop, callees included
  valgrind --tool=callgrind --toggle-collect=bench_loop --callgrind-out-file="$tmp/out" \
    "$1" "$n" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
  awk '/^summary:/ { print $2 }' "$tmp/out"
}

# Pin the stub to the library the direct binary links, so both run the
# same nvrtcVersion.
direct_lib=$(ldd "$build/bench/bench_call_direct" | awk '/libnvrtc/ { print $3 }')
direct=$(count "$build/bench/bench_call_direct")
stub=$(CUDASTUB_NVRTC_PATH=$direct_lib count "$build/bench/bench_call_stub")
awk -v d="$direct" -v s="$stub" -v n="$n" -v lib="$direct_lib" 'BEGIN {
  printf "library          %s\n", lib
  printf "calls            %d\n", n
  printf "direct           %d instructions (%.2f per call)\n", d, d / n
  printf "through the stub %d instructions (%.2f per call)\n", s, s / n
  printf "extra per call   %.2f instructions (contract: at most 2)\n", (s - d) / n
  exit ((s - d) / n > 2.0)
}'
