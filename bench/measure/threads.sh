#!/usr/bin/env bash
# Concurrent first calls: T threads released together, each making the
# library's cheap call once (first_call_threads.c), through the stub and
# linked directly to NVIDIA's library. What T - 1 more threads add to the
# whole process (thread creation and joins included: what a program with T
# threads pays, of which the first call is part), counted by callgrind,
#   count_T - count_1
# through the stub against the same directly (target: at most twice), and
# the wall time from the release to the last thread's return, the median
# of R runs, as a ratio to one thread's. Each is measured twice: on the
# machine as it is ("quiet": its load average is printed with the table)
# and with BUSY busy processes beside it (default 4: twice the cores of a
# 2-core machine), where a first call that polled for another's search
# cost many times what it costs quiet. Prints table rows.
#
#   bench/measure/threads.sh BUILD_DIR [RUNS] [T...]   (default 31; 8 64)
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
runs=${2:-31}
shift $(($# < 2 ? $# : 2))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(8 64)
busy=${BUSY:-4}

# busy_start N: N processes that only use the CPU, until busy_stop
busy_pids=()
busy_start() {
  for _ in $(seq "$1"); do
    (while :; do :; done) &
    busy_pids+=($!)
  done
}
busy_stop() {
  [ ${#busy_pids[@]} -gt 0 ] && kill "${busy_pids[@]}" 2>/dev/null
  wait "${busy_pids[@]}" 2>/dev/null || true
  busy_pids=()
}
trap 'busy_stop; rm -rf "$work"' EXIT

# whole PROGRAM T [NAME=VALUE...]: the instructions of the whole process
whole() {
  local program=$1 t=$2 out
  out=$work/threads_whole_$(basename "$1")_$2
  shift 2
  run_callgrind "$out" "$@" "$program" "$t" && instructions "$out"
}

# median_wall PROGRAM T [NAME=VALUE...]: the median wall time of RUNS runs,
# in microseconds
median_wall() {
  local program=$1 t=$2
  shift 2
  for _ in $(seq "$runs"); do env "$@" "$program" "$t"; done |
    sed -n 's/.*wall_us=\([0-9]*\).*/\1/p' | sort -n |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# measure LIBRARY CONDITION [NAME=VALUE...]: the rows of one library, on
# the machine as it is now
measure() {
  local library=$1 condition=$2 stub direct function s1 d1 sw1 dw1 t st dt sw dw
  shift 2
  stub=$bench/bench_threads_${library}_stub
  direct=$bench/bench_threads_${library}_direct
  function=${cheap_function[$library]}
  if ! s1=$(whole "$stub" 1 "$@") || ! d1=$(whole "$direct" 1); then
    not_measured "concurrent first calls, $condition" "$function" "a run failed (its log is above)"
    return
  fi
  sw1=$(median_wall "$stub" 1 "$@")
  dw1=$(median_wall "$direct" 1)
  for t in "${counts[@]}"; do
    if st=$(whole "$stub" "$t" "$@") && dt=$(whole "$direct" "$t"); then
      awk -v c="$condition" -v f="$function" -v t="$t" -v s1="$s1" -v st="$st" \
        -v d1="$d1" -v dt="$dt" 'BEGIN {
          added = st - s1; direct_added = dt - d1
          printf "| concurrent first calls, instructions %d more threads add to the whole process, %s | %s, %d threads, through the stub | +%d | the same, linked directly | +%d | ×%.2f (target ≤ ×2) |\n",
            t - 1, c, f, t, added, direct_added, (direct_added > 0 ? added / direct_added : 0)
        }'
    fi
    sw=$(median_wall "$stub" "$t" "$@")
    dw=$(median_wall "$direct" "$t")
    awk -v c="$condition" -v f="$function" -v t="$t" -v r="$runs" -v s1="$sw1" -v st="$sw" \
      -v d1="$dw1" -v dt="$dw" 'BEGIN {
        printf "| concurrent first calls, wall time (median of %d), %s | %s, %d threads against 1, through the stub | %d us / %d us | the same, linked directly | %d us / %d us | ×%.2f against ×%.2f |\n",
          r, c, f, t, st, s1, dt, d1, st / s1, dt / d1
      }'
  done
}

for library in "${libraries[@]}"; do
  function=${cheap_function[$library]}
  variables=()
  # the stub finds the driver where the fixture is, as first_call.sh's row does
  if [ "$library" = driver ] && real=$(real_library driver) && [ -n "$real" ]; then
    variables=("LD_LIBRARY_PATH=$(dirname "$real")")
  fi
  if [ ! -x "$bench/bench_threads_${library}_direct" ]; then
    not_measured "concurrent first calls" "$function" "no direct program (the build found no real library)"
    continue
  fi
  measure "$library" "quiet" "${variables[@]}"
  busy_start "$busy"
  measure "$library" "beside $busy busy processes" "${variables[@]}"
  busy_stop
done
