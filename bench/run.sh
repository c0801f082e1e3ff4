#!/usr/bin/env bash
# The benchmarks of cudastub, one table: every figure is a count or a
# ratio against a baseline measured in the same run.
#   calls       instructions per forwarded call, after the first, against
#               a direct call (measure/calls.sh)
#   startup     start-up of a program that links a stub and never calls it,
#               against an empty library, nothing and the real library:
#               instructions and wall time (measure/startup.sh)
#   nvcc        start-up of nvcc-built programs, stub against libcudart
#               (measure/nvcc_startup.sh)
#   first-call  the first call's instructions: dlopen and the stub's own
#               (measure/first_call.sh)
#   threads     T threads' concurrent first calls (8, 64) against one:
#               instructions added and wall time, on the machine as it is
#               and beside four busy processes (measure/threads.sh)
#   registration  kernel registration at 1,000, 10,000 and 50,000 kernels:
#               instructions and heap per kernel, stub against NVIDIA's
#               (measure/registration.sh)
#   syscalls    system calls of a whole run, and per recorded kernel
#               (measure/syscalls.sh)
#   size        stripped size of each stub (measure/size.sh)
#   fork        children forked during a 255-thread first-call storm across
#               five libraries: how many hung or crashed, through the stubs
#               and linked directly (measure/fork_soak.sh)
# Wall times are disturbed by a busy machine: take them with a load
# average below 0.5 (printed above and below the table). Never a test: it
# fails only when it is used wrongly or a tool is missing.
#
#   bench/run.sh [--runs R] [--calls N] [--soak S] [--busy B] BUILD_DIR [PART...]
#     R: starts per program for the wall times (default 300)
#     N: calls of the counted loop, against 2N (default 100000)
#     S: processes of the fork part, each way (default 300)
#     B: busy processes (loops that only use the CPU) kept running beside
#        every part, to measure it under load (default 0; the threads part
#        measures both ways itself)
#     NVCC: the nvcc of the nvcc part (default /usr/local/cuda/bin/nvcc)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
all_parts=(calls startup nvcc first-call threads registration syscalls size fork)

usage() {
  echo "usage: bench/run.sh [--runs R] [--calls N] [--soak S] [--busy B] BUILD_DIR [PART...]" >&2
  echo "  PART: ${all_parts[*]} (default: all)" >&2
  exit 2
}

runs=300
calls=100000
soak=300
busy=0
while [ $# -gt 0 ]; do
  case $1 in
  --runs)
    [ $# -ge 2 ] || usage
    runs=$2 && shift 2
    ;;
  --calls)
    [ $# -ge 2 ] || usage
    calls=$2 && shift 2
    ;;
  --soak)
    [ $# -ge 2 ] || usage
    soak=$2 && shift 2
    ;;
  --busy)
    [ $# -ge 2 ] || usage
    busy=$2 && shift 2
    ;;
  -h | --help) usage ;;
  -*) usage ;;
  *) break ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ && $calls =~ ^[1-9][0-9]*$ && $soak =~ ^[1-9][0-9]*$ &&
  $busy =~ ^[0-9]+$ ]] || usage
[ $# -ge 1 ] || usage
build=$1
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=("${all_parts[@]}")

# What the parts need: the bench programs of the build, and tools.
if [ ! -x "$build/bench/bench_startup_compare" ]; then
  echo "run.sh: $build/bench has no bench programs: build the project there with the tests" \
    "on (they need CUnit), e.g. cmake -S . -B $build && cmake --build $build" >&2
  exit 2
fi
missing=()
need() { command -v "$1" >/dev/null || missing+=("$1 ($2)"); }
need awk "every part"
need ldd "every part"
for part in "${parts[@]}"; do
  case $part in
  calls | startup | first-call | threads | registration)
    need valgrind "part $part: apt-get install valgrind" ;;
  syscalls) need strace "part syscalls: apt-get install strace" ;;
  nvcc) [ -x "${NVCC:-/usr/local/cuda/bin/nvcc}" ] ||
    missing+=("nvcc at ${NVCC:-/usr/local/cuda/bin/nvcc} (part nvcc: set NVCC)") ;;
  size) need strip "part size: apt-get install binutils" ;;
  fork) need timeout "part fork: coreutils" ;;
  *) echo "run.sh: no part named '$part'" >&2 && usage ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'run.sh: missing: %s\n' "${missing[@]}" >&2
  exit 2
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "cudastub benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), commit" \
  "$(git -C "$here/.." describe --always --dirty 2>/dev/null || echo unknown)"
echo "machine: $(nproc) x ${cpu:-unknown CPU}; load average at the start: $(load)"
echo "build: $(cd "$build" && pwd); runs: $runs; calls: $calls; soak: $soak; busy: $busy"
busy_pids=()
stop_busy() {
  [ ${#busy_pids[@]} -gt 0 ] && kill "${busy_pids[@]}" 2>/dev/null
  busy_pids=()
}
trap stop_busy EXIT
for _ in $(seq "$busy"); do
  (while :; do :; done) &
  busy_pids+=($!)
done
echo
echo "| measurement | measured | value | baseline | baseline value | result |"
echo "| --- | --- | --- | --- | --- | --- |"
for part in "${parts[@]}"; do
  case $part in
  calls) "$here/measure/calls.sh" "$build" "$calls" ;;
  startup) "$here/measure/startup.sh" "$build" "$runs" ;;
  nvcc) "$here/measure/nvcc_startup.sh" "$build" "$runs" ;;
  first-call) "$here/measure/first_call.sh" "$build" ;;
  threads) "$here/measure/threads.sh" "$build" "$runs" ;;
  registration) "$here/measure/registration.sh" "$build" ;;
  syscalls) "$here/measure/syscalls.sh" "$build" ;;
  size) "$here/measure/size.sh" "$build" ;;
  fork) "$here/measure/fork_soak.sh" "$build" "$soak" ;;
  esac
done
stop_busy
echo
echo "load average at the end: $(load)"
