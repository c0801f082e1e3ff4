#!/usr/bin/env bash
# Start-up of nvcc-built programs (tests/e2e/programs, built by its
# build.sh) linked to the runtime stub against the same programs linked to
# NVIDIA's libcudart, with Debian's 550 driver on LD_LIBRARY_PATH; medians
# of RUNS starts, the four programs in turn:
#   lazy     holds kernels, makes no CUDA call: start-up alone
#   kernels  launches, copies to symbols, syncs: start-up and first calls
# The programs are kept in BUILD_DIR/bench/nvcc_programs and rebuilt when
# their sources are newer. Prints table rows.
#
#   bench/measure/nvcc_startup.sh BUILD_DIR [RUNS]     (NVCC: nvcc to use)
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
runs=${2:-300}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
measurement="nvcc program start-up, median of $runs"
declare -A described=(
  [lazy]="lazy (kernels, no CUDA call)"
  [kernels]="kernels (launches, symbol copies, a sync)")
[ -x "$nvcc" ] || { echo "nvcc_startup.sh: nvcc not found at $nvcc (set NVCC)" >&2; exit 2; }

driver=$(real_library driver)
if [ -z "$driver" ]; then
  for program in lazy kernels; do
    not_measured "$measurement" "${described[$program]}" "no 550 driver fixture (tests/fixtures/fetch.sh)"
  done
  exit 0
fi

programs_src=$src/tests/e2e/programs
out=$bench/nvcc_programs
stamp=$out/.built
if [ ! -e "$stamp" ] || [ -n "$(find "$programs_src" -newer "$stamp" -print -quit)" ]; then
  runtime=$(cd "$(dirname "$nvcc")/../lib64" && pwd)
  rm -rf "$out"
  if ! "$programs_src/build.sh" "$nvcc" "$out" "${stub_file[cudart]}" "$runtime" >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    for program in lazy kernels; do
      not_measured "$measurement" "${described[$program]}" "the programs did not build (log above)"
    done
    exit 0
  fi
  touch "$stamp"
fi

if ! LD_LIBRARY_PATH=$(dirname "$driver") "$bench/bench_startup_compare" "$runs" \
  "$out/lazy_real" "$out/lazy_stub" "$out/kernels_real" "$out/kernels_stub" >"$work/times"; then
  for program in lazy kernels; do
    not_measured "$measurement" "${described[$program]}" "the timed starts failed"
  done
  exit 0
fi
for program in lazy kernels; do
  awk -v measurement="$measurement" -v label="${described[$program]}, stub" \
    -v real="$out/${program}_real" -v stub="$out/${program}_stub" '
    $4 == real { r = $1 }
    $4 == stub { s = $1 }
    END {
      printf "| %s | %s | %.0f us | linked to libcudart | %.0f us | ×%.2f |\n",
        measurement, label, s, r, s / r
    }' "$work/times"
done
