#!/usr/bin/env bash
# The GPU suite (tests/gpu/prepare.sh builds OUT): every case linked to
# NVIDIA's libraries, then through the link-target stub, through the shims,
# patched by `cudastub patch` and by `cudastub patch --combined` (every
# stub in one file), each output compared byte for byte with
# the one linked to NVIDIA's. The device's properties are compared the
# same way through the 12.4 and 11.8 ABIs' runtime stubs (translated
# structs), every case runs once more through the stub on Debian's 12.4
# runtime (reported), and the cost of a call is measured both ways.
#
#   tests/gpu/run.sh OUT
#
# NVIDIA's libraries come from OUT/lib (the runtime), CUDA_HOME/lib64
# (default /usr/local/cuda/lib64), the system's loader path and the
# caller's LD_LIBRARY_PATH (last); a case whose libraries are not there is
# "not run". GPU_SUITE_EXTRA_LIBS: more folders for the loader (a driver,
# on a machine without one).
#
# Prints one table: case x variant -> same / DIFFERS / not run. Exit 1 on
# any difference, or where a GPU is present, on any case whose run linked
# to NVIDIA's libraries failed; without a GPU, after the table (which
# then compares the no-GPU path alone), exit 77, ctest's skip.
set -uo pipefail
out=$(cd "$1" && pwd)
cuda_libs=${CUDA_HOME:-/usr/local/cuda}/lib64
extra=${GPU_SUITE_EXTRA_LIBS:-}
# the caller's own folders last: an image may keep its driver only there
# (/usr/local/nvidia/lib64), and each run sets LD_LIBRARY_PATH anew
if [ -n "${LD_LIBRARY_PATH:-}" ]; then
  extra=${extra:+$extra:}$LD_LIBRARY_PATH
fi
path_of() { # the loader's path: first, then NVIDIA's folders
  local p="$1:$out/lib:$cuda_libs"
  [ -n "$extra" ] && p="$p:$extra"
  echo "$p"
}

if command -v nvidia-smi >/dev/null && gpu=$(nvidia-smi --query-gpu=name,driver_version \
  --format=csv,noheader 2>/dev/null) && [ -n "$gpu" ]; then
  have_gpu=1
  echo "gpu: $gpu"
else
  have_gpu=0
  echo "gpu: no GPU here (no nvidia-smi, or it lists none): only the no-GPU path is compared"
fi

# case -> the NVIDIA libraries it links (checked before it runs)
declare -A needs=(
  [kernels]=libcudart.so.13 [managed]=libcudart.so.13 [rdc]=libcudart.so.13
  [ptds]=libcudart.so.13 [plugin_host]=libcudart.so.13 [lazy]=libcudart.so.13
  [threads]=libcudart.so.13 [properties]=libcudart.so.13
  [driver_jit]="libnvrtc.so.13 libcuda.so.1"
  [lto]="libnvrtc.so.13 libnvJitLink.so.13 libcuda.so.1"
  [blas]="libcublas.so.13 libcudart.so.13" [fft]="libcufft.so.12 libcudart.so.13"
  [rand]="libcurand.so.10 libcudart.so.13" [sparse]="libcusparse.so.12 libcudart.so.13"
  [solver]="libcusolver.so.12 libcudart.so.13" [cost]=libcudart.so.13
)
cases=(kernels managed rdc ptds plugin_host lazy threads driver_jit lto blas fft rand sparse
  solver properties)

# The first library of the case's list that the loader cannot find.
missing() {
  local lib dir
  for lib in ${needs[$1]}; do
    for dir in $out/lib $cuda_libs ${extra//:/ }; do
      [ -e "$dir/$lib" ] && continue 2
    done
    ldconfig -p 2>/dev/null | grep -q " $lib " && continue
    echo "$lib"
    return
  done
}

# run CASE VARIANT: its output, then its exit status
run() {
  local program args=() path
  case $2 in
    real) program=$out/programs/$1_real path=$(path_of "$out/lib") ;;
    stub) program=$out/programs/$1_stub path=$(path_of "$out/lib") ;;
    shim)
      program=$out/programs/$1_real path=$(path_of "$out/shim")
      # the driver's shim only for a program that itself needs libcuda.so.1
      [[ " ${needs[$1]} " == *" libcuda.so.1 "* ]] && path=$(path_of "$out/shim:$out/shim/driver")
      ;;
    patched) program=$out/patched/$1 path=$(path_of "$out/patched/lib") ;;
    combined) program=$out/combined/$1 path=$(path_of "$out/combined/lib") ;;
    abi12 | abi11) program=$out/programs/$1_$2 path=$(path_of "$out/lib-$2") ;;
    on12) program=$out/programs/$1_stub path=$(path_of "$out/lib")
      export CUDASTUB_CUDART_PATH=$out/lib12/libcudart.so.12 ;;
  esac
  if [ "$1" = plugin_host ]; then
    case $2 in
      stub | on12) args=("$out/programs/libplugin_stub.so") ;;
      patched) args=("$out/patched/libplugin_real.so") ;;
      combined) args=("$out/combined/libplugin_real.so") ;;
      *) args=("$out/programs/libplugin_real.so") ;;
    esac
  fi
  # sh reports the status, a signal's too (128 + its number), where bash
  # would also print its name to the suite's own output
  LD_LIBRARY_PATH=$path timeout 120 sh -c '"$@" 2>&1; echo "exit status: $?"' sh \
    "$program" "${args[@]}"
  unset CUDASTUB_CUDART_PATH
}

differences=0 failures=0
printf '\n| case | NVIDIA'"'"'s | link-target stub | shim | patched | patched, one file | other ABIs | stub on 12.4 |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- |\n'
for c in "${cases[@]}"; do
  lacking=$(missing "$c")
  if [ -n "$lacking" ]; then
    printf '| %s | not run (no %s) | | | | | | |\n' "$c" "$lacking"
    continue
  fi
  run "$c" real >"$out/$c.real"
  real_status=$(tail -n 1 "$out/$c.real")
  [ "$real_status" = "exit status: 0" ] || failures=$((failures + 1))
  cells=()
  for v in stub shim patched combined; do
    if [ "$v" = combined ] && [ ! -d "$out/combined" ]; then
      cells+=("not built (no libcudastub.so)")
      continue
    fi
    run "$c" "$v" >"$out/$c.$v"
    if [ "$c" = lazy ] && [ "$v" != shim ]; then
      # lazy's point: through the stub, a program that makes no CUDA call
      # maps no libcudart; linked to NVIDIA's (or its shim) it does
      grep -qx 'libcudart.so mapped: 0' "$out/$c.$v" && cells+=("same, none mapped") ||
        { cells+=("DIFFERS"); differences=$((differences + 1)); }
    elif cmp -s "$out/$c.real" "$out/$c.$v"; then
      cells+=("same")
    else
      cells+=("DIFFERS")
      differences=$((differences + 1))
    fi
  done
  abis=""
  if [ "$c" = properties ]; then
    for v in abi12 abi11; do
      [ -x "$out/programs/properties_$v" ] || { abis="$abis $v: not built;"; continue; }
      run "$c" "$v" >"$out/$c.$v"
      if cmp -s "$out/$c.real" "$out/$c.$v"; then
        abis="$abis $v: same;"
      else
        abis="$abis $v: DIFFERS;"
        differences=$((differences + 1))
      fi
    done
  fi
  on12="(no 12.4 runtime)"
  if [ -e "$out/lib12/libcudart.so.12" ] && [[ " ${needs[$c]} " == *" libcudart.so.13 "* ]]; then
    run "$c" on12 >"$out/$c.on12"
    on12=$(tail -n 1 "$out/$c.on12")
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$c" "$real_status" "${cells[0]}" \
    "${cells[1]}" "${cells[2]}" "${cells[3]}" "${abis:- }" "$on12"
done

# the cost of a call on this host, NVIDIA's runtime against the stub: five
# runs of each, alternating (a first call's wall time differs by process,
# 103 to 191 ms on one machine), the median and the range of each
cost_runs=5
# cost_cell WHAT FILE: "median unit (low to high)" of WHAT's lines in FILE
cost_cell() {
  grep "^$1:" "$2" | awk '{ print $(NF - 1), $NF }' | sort -g | awk '
    { v[NR] = $1; unit = $2 }
    END { if (NR) printf "%s %s (%s to %s)", v[int((NR + 1) / 2)], unit, v[1], v[NR] }'
}
if [ -z "$(missing cost)" ]; then
  printf '\n| cost (wall time, median of %d runs each, alternating) | NVIDIA'"'"'s runtime | through the stub |\n| --- | --- | --- |\n' "$cost_runs"
  : >"$out/cost.real"
  : >"$out/cost.stub"
  for ((i = 0; i < cost_runs; i++)); do
    run cost real >>"$out/cost.real"
    run cost stub >>"$out/cost.stub"
  done
  for what in "first call" "per call"; do
    printf '| %s | %s | %s |\n' "$what" "$(cost_cell "$what" "$out/cost.real")" \
      "$(cost_cell "$what" "$out/cost.stub")"
  done
fi

for c in "${cases[@]}"; do
  for v in stub shim patched combined abi12 abi11; do
    [ -e "$out/$c.$v" ] && [ "$c" != lazy ] || continue
    cmp -s "$out/$c.real" "$out/$c.$v" && continue
    echo "== $c: linked to NVIDIA's libraries, then $v"
    diff "$out/$c.real" "$out/$c.$v" | head -40
  done
done
echo
if [ "$differences" -gt 0 ]; then
  echo "gpu: $differences variants print other than NVIDIA's libraries"
  exit 1
fi
if [ "$have_gpu" = 0 ]; then
  echo "gpu: no GPU: every variant printed what NVIDIA's libraries print without one (skipped)"
  exit 77
fi
if [ "$failures" -gt 0 ]; then
  echo "gpu: $failures cases failed linked to NVIDIA's libraries (see $out/<case>.real)"
  exit 1
fi
echo "gpu: every case computed its results, the same in every variant"
