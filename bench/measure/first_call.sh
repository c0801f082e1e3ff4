#!/usr/bin/env bash
# The first call's instructions through
# the stub, against a bare first call of the library the stub chooses
# (bare_dlopen.c: dlopen of that file, dlsym, the same call; counted in
# the same run). The stub's own work is the difference: the search, the
# checks of each file, the probes, binding its own imports, the
# bookkeeping; the target is at most 20 % of the bare call. The dlopen
# calls the stub makes are listed by caller, to show where they go.
# Callgrind counts inside first_call (call_overhead.c) only. Each library
# with an override (CUDASTUB_<LIB>_PATH) and with the default search.
# Prints table rows.
#
#   bench/measure/first_call.sh BUILD_DIR
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
measurement="first call, instructions"
driver=$(real_library driver)
driver_dir=${driver:+$(dirname "$driver")}

# split PROFILE: "TOTAL DLOPEN_CALLS DLOPEN_INSTRUCTIONS BREAKDOWN" of an
# uncompressed callgrind profile; BREAKDOWN lists, per stub function that
# called cudastub_dlopen, its calls and their inclusive instructions, the
# costliest first.
split() {
  awk '
    function grouped(n, digits, out) {
      digits = sprintf("%d", n)
      while (length(digits) > 3) {
        out = "," substr(digits, length(digits) - 2) out
        digits = substr(digits, 1, length(digits) - 3)
      }
      return digits out
    }
    /^summary:/ { total = $2 }
    /^ob=/ { object = substr($0, 4) }
    /^fn=/ { caller = substr($0, 4) }
    /^cfn=/ {
      callee = substr($0, 5)
      getline calls_line
      getline cost_line
      split(calls_line, calls, /[= ]/)
      split(cost_line, cost, " ")
      if (object ~ /_stub_cu[0-9]+(-[0-9a-f]+)?\.so$/ && callee ~ /^_*dlopen(@.*)?$/) {
        dlopen_calls += calls[2]
        dlopen_cost += cost[2]
      }
      if (callee == "cudastub_dlopen") {
        if (!(caller in by_caller))
          order[++callers] = caller
        by_caller[caller] += cost[2]
        calls_by_caller[caller] += calls[2]
      }
    }
    END {
      for (i = 1; i <= callers; i++) # the costliest first
        for (j = i + 1; j <= callers; j++)
          if (by_caller[order[j]] > by_caller[order[i]]) {
            swap = order[i]
            order[i] = order[j]
            order[j] = swap
          }
      breakdown = ""
      for (i = 1; i <= callers; i++)
        breakdown = breakdown (i > 1 ? "; " : "") order[i] " ×" calls_by_caller[order[i]] " " grouped(by_caller[order[i]])
      print total, dlopen_calls + 0, dlopen_cost + 0, breakdown
    }' "$1"
}

# bare LIBRARY [NAME=VALUE...]: the instructions of bare_dlopen.c's first
# call of the library the stub chooses on this machine (the file the
# direct program links), in the row's environment (NVIDIA's runtime itself
# loads a driver it finds on the path, even for cudaGetErrorName), or
# nothing
bare() {
  local library=$1 real profile=$work/bare
  shift
  real=$(real_library "$library")
  [ -n "$real" ] && [ -x "$bench/bench_bare_$library" ] || return 0
  run_callgrind "$profile" "$@" --toggle-collect=first_call "$bench/bench_bare_$library" "$real" &&
    instructions "$profile"
}

# first_call LIBRARY DESCRIPTION [NAME=VALUE...]: one row
first_call() {
  local library=$1 description=$2 profile=$work/first_call
  shift 2
  local label="${cheap_function[$library]}, $description"
  local total dlopen_calls dlopen_cost breakdown base
  base=$(bare "$library" "$@")
  if [ -z "$base" ]; then
    not_measured "$measurement" "$label" "no bare first call of NVIDIA's library to compare with"
    return
  fi
  if ! run_callgrind "$profile" "$@" --toggle-collect=first_call --compress-strings=no \
    --compress-pos=no "$bench/bench_call_${library}_stub" 0; then
    not_measured "$measurement" "$label" "the run failed (its log is above)"
    return
  fi
  read -r total dlopen_calls dlopen_cost breakdown < <(split "$profile")
  row "$measurement" "$label (its dlopen calls: ×$dlopen_calls, $(grouped "$dlopen_cost"); by caller: $breakdown)" \
    "$(grouped "$total")" "bare dlopen, dlsym and call of $(basename "$(real_library "$library")")" \
    "$(grouped "$base")" \
    "stub's own: $(grouped $((total - base))), $(awk -v o=$((total - base)) -v b="$base" \
      'BEGIN { printf "%.1f", 100 * o / b }') % of the bare call (target ≤ 20 %)"
}

for library in "${libraries[@]}"; do
  real=$(real_library "$library")
  variable=${override_variable[$library]}
  if [ -n "$real" ]; then
    first_call "$library" "override ($variable)" "$variable=$real"
  else
    not_measured "$measurement" "${cheap_function[$library]}, override" "no real library found by the build"
  fi
  case $library in
  nvrtc)
    first_call nvrtc "default search"
    if [ -n "$driver_dir" ]; then
      first_call nvrtc "default search, 550 driver on LD_LIBRARY_PATH" "LD_LIBRARY_PATH=$driver_dir"
    fi
    ;;
  cudart)
    first_call cudart "default search, no driver"
    # twenty folders on the loader's path, none holding the library: each
    # is looked in for each SONAME before ld.so.cache finds it
    folders=$(for i in $(seq 20); do mkdir -p "$work/path$i" && printf '%s:' "$work/path$i"; done)
    first_call cudart "default search, no driver, 20 folders on LD_LIBRARY_PATH" \
      "LD_LIBRARY_PATH=${folders%:}"
    if [ -n "$driver_dir" ]; then
      first_call cudart "default search, 550 driver on LD_LIBRARY_PATH" "LD_LIBRARY_PATH=$driver_dir"
    fi
    ;;
  driver)
    if [ -n "$driver_dir" ]; then
      first_call driver "default search, 550 driver on LD_LIBRARY_PATH" "LD_LIBRARY_PATH=$driver_dir"
    else
      not_measured "$measurement" "cuDriverGetVersion, default search" "no 550 driver fixture"
    fi
    ;;
  esac
done
