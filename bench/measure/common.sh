# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this
# Sourced by every bench/measure/*.sh: what they share. Sets
#   src, build, bench     the source tree, the build folder, its bench/ folder
#   work                  a scratch folder, removed on exit
# clears the environment that would change what the stubs find, and
# defines the helpers below. Expects BUILD_DIR as "$1" of the sourcing script.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
bench=$build/bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every run starts from the same environment: no override, pin or debug
# variable of the stubs, no toolkit variables, nothing on the loader's path.
unset LD_LIBRARY_PATH LD_PRELOAD CUDA_HOME CUDA_PATH
while read -r name; do unset "$name"; done < <(compgen -e | grep '^CUDASTUB_' || true)

libraries=(nvrtc cudart driver)
declare -A cheap_function=([nvrtc]=nvrtcVersion [cudart]=cudaGetErrorName [driver]=cuDriverGetVersion)
declare -A override_variable=(
  [nvrtc]=CUDASTUB_NVRTC_PATH [cudart]=CUDASTUB_CUDART_PATH [driver]=CUDASTUB_CUDA_PATH)
# the build's own ABI: the stubs the bench programs link
abi=$(sed -n 's/^CUDASTUB_ABI:STRING=//p' "$build/CMakeCache.txt")
declare -A stub_file=(
  [nvrtc]=$build/lib/libnvrtc_stub_cu$abi.so
  [cudart]=$build/lib/libcudart_stub_cu$abi.so
  [driver]=$build/lib/libcuda_stub_cu$abi.so)
declare -A real_name_pattern=([nvrtc]='^libnvrtc\.' [cudart]='^libcudart\.' [driver]='^libcuda\.so')

# real_library LIBRARY: the path of NVIDIA's library the direct program
# links (the toolkit's libnvrtc and libcudart, the 550 driver fixture), or
# nothing when the build found none and made no direct program.
real_library() {
  local direct=$bench/bench_call_$1_direct
  [ -x "$direct" ] || return 0
  ldd "$direct" | awk -v pattern="${real_name_pattern[$1]}" '$1 ~ pattern { print $3; exit }'
}

# row MEASUREMENT MEASURED VALUE BASELINE BASELINE_VALUE RESULT: one table row
row() {
  printf '| %s | %s | %s | %s | %s | %s |\n' "$@"
}

# not_measured MEASUREMENT MEASURED WHY: a row saying why there is no figure
not_measured() {
  row "$1" "$2" "not measured: $3" "" "" ""
}

# grouped NUMBER [+]: 1234567 -> 1,234,567; with "+", a sign on positives too
grouped() {
  awk -v n="$1" -v plus="${2:-}" 'BEGIN {
    sign = n < 0 ? "-" : (plus == "+" ? "+" : "")
    digits = sprintf("%.0f", n < 0 ? -n : n)
    out = ""
    while (length(digits) > 3) {
      out = "," substr(digits, length(digits) - 2) out
      digits = substr(digits, 1, length(digits) - 3)
    }
    print sign digits out
  }'
}

# run_callgrind OUT [NAME=VALUE...] [--VALGRIND_OPTION...] PROGRAM [ARG...]
# Runs PROGRAM under callgrind with those variables set, its profile in
# OUT; on failure shows valgrind's log on stderr and returns 1.
run_callgrind() {
  local out=$1 variables=() options=()
  shift
  while [ $# -gt 0 ] && [[ $1 == [A-Za-z_]*=* ]]; do variables+=("$1") && shift; done
  while [ $# -gt 0 ] && [[ $1 == --* ]]; do options+=("$1") && shift; done
  if ! env "${variables[@]}" valgrind --tool=callgrind "${options[@]}" \
    --callgrind-out-file="$out" "$@" >"$out.log" 2>&1; then
    echo "bench: this run failed under callgrind: ${variables[*]} $*" >&2
    cat "$out.log" >&2
    return 1
  fi
}

# instructions OUT: the instructions callgrind counted in the profile OUT
instructions() {
  awk '/^summary:/ { print $2 }' "$1"
}
