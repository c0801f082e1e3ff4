#!/usr/bin/env bash
# Instructions per forwarded call, after the first, for the cheap
# function of each library, through the stub against a direct link to
# NVIDIA's library. Callgrind counts inside calls_loop (call_overhead.c)
# for N and for 2N calls; the difference of the two is N calls with every
# fixed cost (process, loading, the first call's search) cancelled:
#   per call = (count_2N - count_N) / N
# The stub is pinned to the very library the direct program links, so
# both reach the same code. Prints table rows.
#
#   bench/measure/calls.sh BUILD_DIR [N]
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
n=${2:-100000}
measurement="instructions per call, after the first (N=$(grouped "$n") vs 2N)"

# loop_instructions OUT_NAME N [NAME=VALUE...] PROGRAM
loop_instructions() {
  local out=$work/$1 count=$2
  shift 2
  run_callgrind "$out" "${@:1:$#-1}" --toggle-collect=calls_loop "${@: -1}" "$count" &&
    instructions "$out"
}

for library in "${libraries[@]}"; do
  function=${cheap_function[$library]}
  real=$(real_library "$library")
  if [ -z "$real" ]; then
    not_measured "$measurement" "$function" "no direct program (the build found no real library)"
    continue
  fi
  stub_program=$bench/bench_call_${library}_stub
  direct_program=$bench/bench_call_${library}_direct
  pin=${override_variable[$library]}=$real
  if ! direct_n=$(loop_instructions direct_n "$n" "$direct_program") ||
    ! direct_2n=$(loop_instructions direct_2n $((2 * n)) "$direct_program") ||
    ! stub_n=$(loop_instructions stub_n "$n" "$pin" "$stub_program") ||
    ! stub_2n=$(loop_instructions stub_2n $((2 * n)) "$pin" "$stub_program"); then
    not_measured "$measurement" "$function" "a run failed (its log is above)"
    continue
  fi
  awk -v measurement="$measurement" -v function_name="$function" -v n="$n" \
    -v d1="$direct_n" -v d2="$direct_2n" -v s1="$stub_n" -v s2="$stub_2n" 'BEGIN {
      direct = (d2 - d1) / n
      stub = (s2 - s1) / n
      printf "| %s | %s through the stub | %.2f | direct call | %.2f | %+.2f (target +1) |\n",
        measurement, function_name, stub, direct, stub - direct
    }'
done
