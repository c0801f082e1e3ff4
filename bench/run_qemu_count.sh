#!/usr/bin/env bash
# Counts, with qemu-user, the aarch64 instructions of N forwarded calls
# through the stub against N direct calls to NVIDIA's arm64 libnvrtc, and
# prints the extra instructions per call. The forwarder is adrp/ldr/br
# (stubs/arch/aarch64/forwarder_aarch64.h): the contract allows 3 on aarch64.
#
#   bench/run_qemu_count.sh [AARCH64_BUILD_DIR] [N]
#
# qemu runs one instruction per translation block (-singlestep) and logs
# each block it executes (-d nochain,exec): the log's lines are the
# instructions executed. Each program runs for N and for 2N calls, and
# the difference is N calls alone, without loading and the first call.
set -euo pipefail
build=${1:-build-arm64}
n=${2:-1000}
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64) ||
  { echo "run_qemu_count.sh: qemu-user is not installed" >&2; exit 2; }
root=${CUDASTUB_QEMU_ROOT:-/usr/aarch64-linux-gnu}
direct_bin=$build/bench/bench_call_nvrtc_direct
[ -x "$direct_bin" ] || {
  echo "run_qemu_count.sh: $direct_bin missing (no arm64 libnvrtc fixture at build time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # binary calls -> instructions executed, whole program
  rm -f "$tmp/log"
  mkfifo "$tmp/log"
  wc -l <"$tmp/log" >"$tmp/count" &
  local reader=$!
  "$qemu" -L "$root" -singlestep -d nochain,exec -D "$tmp/log" "$1" "$2" >/dev/null
  wait "$reader"
  cat "$tmp/count"
}

# The library the direct binary links, which the stub is pinned to.
lib=$(aarch64-linux-gnu-readelf -d "$direct_bin" | awk -F'[][]' '/RUNPATH|RPATH/ { print $2 }')/libnvrtc.so.12
export CUDASTUB_NVRTC_PATH=$lib
direct=$(($(count "$direct_bin" $((2 * n))) - $(count "$direct_bin" "$n")))
stub=$(($(count "$build/bench/bench_call_nvrtc_stub" $((2 * n))) - $(count "$build/bench/bench_call_nvrtc_stub" "$n")))
awk -v d="$direct" -v s="$stub" -v n="$n" -v lib="$lib" 'BEGIN {
  printf "library          %s\n", lib
  printf "calls            %d\n", n
  printf "direct           %d instructions (%.2f per call)\n", d, d / n
  printf "through the stub %d instructions (%.2f per call)\n", s, s / n
  printf "extra per call   %.2f instructions (contract on aarch64: at most 3)\n", (s - d) / n
  exit ((s - d) / n > 3.0)
}'
