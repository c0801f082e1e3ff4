#!/usr/bin/env bash
# System calls: a whole run of the first-call program of each
# library (bench_call_<library>_<stub|direct> 1: start, the first call,
# one more, exit), through the stub by the default search against linked
# directly; and kernel registration, N against 2N kernels through the stub
# (what each recorded kernel adds: the target is none). strace -f -c
# counts them. Prints table rows.
#
#   bench/measure/syscalls.sh BUILD_DIR
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
measurement="system calls, whole run (strace -f -c)"

# calls OUT PROGRAM [ARG...] (NAME=VALUE... first): the total strace counted
calls() {
  local out=$work/$1 variables=()
  shift
  while [ $# -gt 0 ] && [[ $1 == [A-Za-z_]*=* ]]; do variables+=("$1") && shift; done
  env "${variables[@]}" strace -f -c -o "$out" "$@" >/dev/null 2>&1 || return 1
  awk '$NF == "total" { print $4 }' "$out"
}

driver=$(real_library driver)
for library in "${libraries[@]}"; do
  function=${cheap_function[$library]}
  direct=$bench/bench_call_${library}_direct
  variables=()
  [ "$library" = driver ] && [ -n "$driver" ] && variables=("LD_LIBRARY_PATH=$(dirname "$driver")")
  if [ ! -x "$direct" ]; then
    not_measured "$measurement" "$function" "no direct program (the build found no real library)"
    continue
  fi
  if ! stub=$(calls "sys_$library" "${variables[@]}" "$bench/bench_call_${library}_stub" 1) ||
    ! linked=$(calls "sys_${library}_direct" "$direct" 1); then
    not_measured "$measurement" "$function" "a run failed under strace"
    continue
  fi
  row "$measurement" "$function: first call by the default search, through the stub" "$stub" \
    "linked directly" "$linked" "+$((stub - linked))"
done
# Registration: N against 2N kernels, through the stub and linked
# directly. NVIDIA's runtime itself grows its heap as it registers (brk,
# about 18 calls per 10,000 kernels), in both; the stub's own per kernel is
# what the stub's run adds beyond the direct one's.
if [ -x "$bench/bench_register_stub" ] && [ -x "$bench/bench_register_direct" ]; then
  n=10000
  if one=$(calls sys_register_n "$bench/bench_register_stub" $n) &&
    two=$(calls sys_register_2n "$bench/bench_register_stub" $((2 * n))) &&
    direct_one=$(calls sys_register_direct_n "$bench/bench_register_direct" $n) &&
    direct_two=$(calls sys_register_direct_2n "$bench/bench_register_direct" $((2 * n))); then
    row "system calls per recorded kernel (N=$(grouped $n) vs 2N)" \
      "kernel registration through the stub, beyond NVIDIA's own" \
      "$(awk -v a="$one" -v b="$two" -v c="$direct_one" -v d="$direct_two" -v n=$n \
        'BEGIN { printf "%.4f", ((b - a) - (d - c)) / n }')" \
      "NVIDIA's registration, linked directly, per kernel" \
      "$(awk -v c="$direct_one" -v d="$direct_two" -v n=$n 'BEGIN { printf "%.4f", (d - c) / n }')" \
      "target 0 (the log's growth: one per doubling)"
  fi
fi
