#!/usr/bin/env bash
# Start-up of an nvcc-built program linked to the stub against the same
# program linked to NVIDIA's libcudart, with Debian's 550 driver on the
# path, in one run (medians of RUNS alternating starts each):
#   lazy     holds kernels, makes no CUDA call: start-up alone
#   kernels  launches, copies to symbols, syncs: start-up plus first calls
# The programs are tests/e2e/programs, built by build.sh.
#
#   bench/startup_nvcc.sh [BUILD_DIR] [RUNS]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
runs=${2:-300}
fixtures=${CUDASTUB_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudastub-fixtures}
driver=$fixtures/driver-550/usr/lib/x86_64-linux-gnu/nvidia/current
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
compare=$build/bench/bench_startup_compare
[ -x "$compare" ] || { echo "startup_nvcc.sh: build $compare first" >&2; exit 2; }
[ -x "$nvcc" ] || { echo "startup_nvcc.sh: nvcc not found" >&2; exit 2; }
[ -f "$driver/libcuda.so.1" ] || { echo "startup_nvcc.sh: no driver fixture; run tests/fixtures/fetch.sh" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runtime=$(cd "$(dirname "$nvcc")/../lib64" && pwd)
"$src/tests/e2e/programs/build.sh" "$nvcc" "$tmp" "$build/stubs/cudart" "$runtime" >/dev/null

echo "runs: $runs each, alternating; driver: $driver on LD_LIBRARY_PATH"
for program in lazy kernels; do
  echo "== $program (A: NVIDIA's libcudart, B: the stub)"
  LD_LIBRARY_PATH=$driver "$compare" "$runs" "$tmp/${program}_real" "$tmp/${program}_stub"
done
