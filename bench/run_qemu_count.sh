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

count() { # name binary calls -> $tmp/name.count: instructions executed, whole program
  mkfifo "$tmp/$1.log"
  wc -l <"$tmp/$1.log" >"$tmp/$1.count" &
  local reader=$!
  "$qemu" -L "$root" -singlestep -d nochain,exec -D "$tmp/$1.log" "$2" "$3" >/dev/null
  wait "$reader"
}

# The library the direct binary links, which the stub is pinned to.
lib=$(aarch64-linux-gnu-readelf -d "$direct_bin" | awk -F'[][]' '/RUNPATH|RPATH/ { print $2 }')/libnvrtc.so.12
export CUDASTUB_NVRTC_PATH=$lib
stub_bin=$build/bench/bench_call_nvrtc_stub
# the four runs at once: each is one emulated thread, and counts are exact
count direct1 "$direct_bin" "$n" &
count direct2 "$direct_bin" $((2 * n)) &
count stub1 "$stub_bin" "$n" &
count stub2 "$stub_bin" $((2 * n)) &
for job in $(jobs -p); do wait "$job"; done
direct=$(($(cat "$tmp/direct2.count") - $(cat "$tmp/direct1.count")))
stub=$(($(cat "$tmp/stub2.count") - $(cat "$tmp/stub1.count")))
awk -v d="$direct" -v s="$stub" -v n="$n" -v lib="$lib" 'BEGIN {
  printf "library          %s\n", lib
  printf "calls            %d\n", n
  printf "direct           %d instructions (%.2f per call)\n", d, d / n
  printf "through the stub %d instructions (%.2f per call)\n", s, s / n
  printf "extra per call   %.2f instructions (contract on aarch64: at most 3)\n", (s - d) / n
  exit ((s - d) / n > 3.0)
}'
