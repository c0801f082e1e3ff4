#!/usr/bin/env bash
# Concurrent first calls (issue 20, point 2): T threads released together,
# each making the library's cheap call once (first_call_threads.c), through
# the stub and linked directly to NVIDIA's library. Callgrind counts inside
# thread_first_call in every thread, and then the whole process as issue 20
# measured it (2.41 M against 167 k); what T - 1 more threads add is
#   count_T - count_1
# through the stub against the same directly (target: at most twice). The
# wall time, from the release to the last thread's return, is the median
# of R runs, as a ratio to one thread's. Prints table rows.
#
#   bench/measure/threads.sh BUILD_DIR [RUNS] [T...]   (default 31; 8 64)
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
runs=${2:-31}
shift $(($# < 2 ? $# : 2))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(8 64)
measurement="concurrent first calls, instructions T threads add over one"
measurement_whole="concurrent first calls, instructions T threads add to the whole process"
wall="concurrent first calls, wall time (median of $runs)"

# counted PROGRAM T [NAME=VALUE...]: the instructions of thread_first_call,
# every thread
counted() {
  local program=$1 t=$2 out=$work/threads_$(basename "$1")_$2
  shift 2
  run_callgrind "$out" "$@" --toggle-collect=thread_first_call "$program" "$t" &&
    instructions "$out"
}

# whole PROGRAM T [NAME=VALUE...]: the instructions of the whole process,
# as issue 20 measured them (thread creation and joins included: what a
# program with T threads pays, of which the first call is part)
whole() {
  local program=$1 t=$2 out=$work/threads_whole_$(basename "$1")_$2
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

for library in "${libraries[@]}"; do
  stub=$bench/bench_threads_${library}_stub
  direct=$bench/bench_threads_${library}_direct
  function=${cheap_function[$library]}
  variables=()
  # the stub finds the driver where the fixture is, as first_call.sh's row does
  if [ "$library" = driver ] && real=$(real_library driver) && [ -n "$real" ]; then
    variables=("LD_LIBRARY_PATH=$(dirname "$real")")
  fi
  if [ ! -x "$direct" ]; then
    not_measured "$measurement" "$function" "no direct program (the build found no real library)"
    continue
  fi
  if ! stub_1=$(counted "$stub" 1 "${variables[@]}") || ! direct_1=$(counted "$direct" 1); then
    not_measured "$measurement" "$function" "a run failed (its log is above)"
    continue
  fi
  stub_wall_1=$(median_wall "$stub" 1 "${variables[@]}")
  direct_wall_1=$(median_wall "$direct" 1)
  for t in "${counts[@]}"; do
    stub_t=$(counted "$stub" "$t" "${variables[@]}") || continue
    direct_t=$(counted "$direct" "$t") || continue
    awk -v m="$measurement" -v f="$function" -v t="$t" -v s1="$stub_1" -v st="$stub_t" \
      -v d1="$direct_1" -v dt="$direct_t" 'BEGIN {
        added = st - s1; direct_added = dt - d1
        printf "| %s | %s, %d threads, through the stub | +%d | the same, linked directly | +%d | ×%.2f (target ≤ ×2) |\n",
          m, f, t, added, direct_added, (direct_added > 0 ? added / direct_added : 0)
      }'
    if stub_whole_1=$(whole "$stub" 1 "${variables[@]}") && direct_whole_1=$(whole "$direct" 1) &&
      stub_whole=$(whole "$stub" "$t" "${variables[@]}") && direct_whole=$(whole "$direct" "$t"); then
      awk -v m="$measurement_whole" -v f="$function" -v t="$t" -v s1="$stub_whole_1" \
        -v st="$stub_whole" -v d1="$direct_whole_1" -v dt="$direct_whole" 'BEGIN {
          added = st - s1; direct_added = dt - d1
          printf "| %s | %s, %d threads, through the stub | +%d | the same, linked directly | +%d | ×%.2f (target ≤ ×2) |\n",
            m, f, t, added, direct_added, (direct_added > 0 ? added / direct_added : 0)
        }'
    fi
    stub_wall=$(median_wall "$stub" "$t" "${variables[@]}")
    direct_wall=$(median_wall "$direct" "$t")
    awk -v m="$wall" -v f="$function" -v t="$t" -v s1="$stub_wall_1" -v st="$stub_wall" \
      -v d1="$direct_wall_1" -v dt="$direct_wall" 'BEGIN {
        printf "| %s | %s, %d threads against 1, through the stub | %d us / %d us | the same, linked directly | %d us / %d us | ×%.2f against ×%.2f |\n",
          m, f, t, st, s1, dt, d1, st / s1, dt / d1
      }'
  done
done
