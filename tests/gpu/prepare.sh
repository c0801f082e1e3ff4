#!/usr/bin/env bash
# Prepares the GPU suite, on a machine without a GPU: every program of the
# suite, built for the GPUs of today (SASS for sm_80 and sm_90, PTX for
# compute_90), in four variants, into OUT, a folder that travels to the
# GPU machine, where tests/gpu/run.sh OUT runs it:
#   programs/<case>_real      linked to NVIDIA's libraries
#   programs/<case>_stub      linked to the stubs (the link target)
#   patched/<case>            <case>_real after `cudastub patch`
#   combined/<case>           <case>_real after `cudastub patch --combined`
#                             (every stub in one libcudastub.so)
#   (shim)                    <case>_real, run.sh putting shim/ first
# The cases: the end-to-end programs of tests/e2e/programs (launches after
# a deferred registration, __device__/__constant__/__managed__ variables,
# -rdc=true, per-thread default stream, a plugin loaded after the first
# call, a program that makes no CUDA call), and those of
# tests/gpu/programs (sixteen threads' first calls at once; NVRTC, then
# the driver; NVRTC's LTO IR linked by nvJitLink; cuBLAS, cuFFT, cuRAND,
# cuSPARSE, cuSOLVER; the device's properties from the 13.0, 12.4 and 11.8
# ABIs' builds; the cost of a call). Each checks its own results.
#
# In OUT/lib the stubs of the build's ABI (CUDASTUB_ABI: 13) and NVIDIA's
# libcudart.so.13, in lib-abi12 and lib-abi11 the runtime stubs of those
# ABIs, in shim/ the build ABI's shims, in lib12/
# Debian's 12.4 runtime (when its fixture is here). Nothing of NVIDIA's
# but the 700 KB runtime is copied: the other libraries the programs link
# are found on the GPU machine (CUDA_HOME/lib64). OUT is about 15 MB.
#
#   [GPU_SUITE_HERE=1] tests/gpu/prepare.sh BUILD_DIR OUT [NVCC]
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
nvcc=${3:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/programs
fixtures=${CUDASTUB_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudastub-fixtures}
toolkit=$(cd "$(dirname "$nvcc")/.." && pwd)
lib64=$(dirname "$(readlink -f "$toolkit/lib64/libcudart.so.13")")
cli=$build/tools/cli/cudastub
abi=$(sed -n 's/^CUDASTUB_ABI:STRING=//p' "$build/CMakeCache.txt")

rm -rf "$out" && mkdir -p "$out/lib" "$out/bin" "$out/programs" "$out/patched"
out=$(cd "$out" && pwd)
echo "gpu: the stubs and shims of $build"
# each stub's file (named by its ABI and tag) and its -l name's link
cp -P "$build"/lib/lib*_stub_cu"$abi"*.so "$out/lib/"
cp -r "$build/shim/cu$abi" "$out/shim"
cp -L "$lib64/libcudart.so.13" "$out/lib/"
for major in 12 11; do
  if [ -e "$build/lib/libcudart_stub_cu$major.so" ]; then
    mkdir -p "$out/lib-abi$major"
    cp -P "$build"/lib/libcudart_stub_cu"$major"*.so "$out/lib-abi$major/"
  fi
done
if [ -e "$fixtures/cuda-12.4/usr/lib/x86_64-linux-gnu/libcudart.so.12" ]; then
  mkdir -p "$out/lib12"
  cp -L "$fixtures/cuda-12.4/usr/lib/x86_64-linux-gnu/libcudart.so.12" "$out/lib12/"
fi

# nvcc with the architectures of the GPUs the suite may meet. With
# GPU_SUITE_HERE=1 (ctest's gpu_suite) OUT runs on this machine alone, and
# where it has no GPU (no device node of one: /dev/nvidiactl alone is
# none) no kernel runs: one architecture's code is all the programs need
# to build and link.
archs="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
archs="$archs -gencode arch=compute_90,code=compute_90"
if [ "${GPU_SUITE_HERE:-0}" = 1 ] && ! compgen -G '/dev/nvidia[0-9]*' >/dev/null; then
  archs="-gencode arch=compute_90,code=sm_90"
fi
cat >"$out/bin/nvcc" <<WRAP
#!/bin/sh
exec '$nvcc' $archs "\$@"
WRAP
chmod +x "$out/bin/nvcc"
echo "gpu: building tests/e2e/programs (nvcc $archs)"
"$here/../e2e/programs/build.sh" "$out/bin/nvcc" "$out/programs" \
  "$(readlink -f "$out/lib/libcudart_stub_cu$abi.so")" "$out/lib"
rm -f "$out"/programs/*.o "$out"/programs/many_kernels_* "$out"/programs/jit_real

echo "gpu: building tests/gpu/programs"
cd "$out/programs"
declare -A libs=(
  [blas]="-lcublas -lcudart"
  [fft]="-lcufft -lcudart"
  [rand]="-lcurand -lcudart"
  [sparse]="-lcusparse -lcudart"
  [solver]="-lcusolver -lcudart"
  [driver_jit]="-lnvrtc -lcuda"
  [lto]="-lnvrtc -lnvJitLink -lcuda"
  [properties]="-lcudart"
  [cost]="-lcudart"
)
# the stub of each NVIDIA library, by the -l name the program links
stubbed() {
  local l flags=()
  for l in "$@"; do
    case $l in
      -lcuda) flags+=("-lcuda_stub_cu$abi") ;;
      -lnvJitLink) flags+=("-lnvjitlink_stub_cu$abi") ;;
      *) flags+=("${l}_stub_cu$abi") ;;
    esac
  done
  echo "${flags[@]}"
}
c_flags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$src" -isystem "$toolkit/include")
for program in "${!libs[@]}"; do
  # shellcheck disable=SC2086 # the -l flags are words
  cc "${c_flags[@]}" "$src/$program.c" -o "${program}_real" \
    -L"$lib64" -L"$lib64/stubs" ${libs[$program]} -lm
  # shellcheck disable=SC2046
  cc "${c_flags[@]}" "$src/$program.c" -o "${program}_stub" \
    -L"$out/lib" $(stubbed ${libs[$program]}) -lm
done
"$out/bin/nvcc" -I"$src" "$src/threads.cu" -o threads_real -cudart shared -L"$out/lib"
"$out/bin/nvcc" -I"$src" "$src/threads.cu" -o threads_stub -cudart none -L"$out/lib" \
  "-lcudart_stub_cu$abi"
# the device's properties through the other ABIs' runtime stubs
for major in 12 11; do
  version=$([ "$major" = 12 ] && echo 12.4 || echo 11.8)
  headers=$fixtures/headers-$version/usr/include
  if [ -d "$out/lib-abi$major" ] && [ -e "$headers/cuda_runtime_api.h" ]; then
    cc -std=c11 -O2 -Wall -Wextra -Werror -I"$src" -isystem "$headers" "$src/properties.c" \
      -o "properties_abi$major" \
      -L"$out/lib-abi$major" "-lcudart_stub_cu$major"
    patchelf --set-rpath "\$ORIGIN/../lib-abi$major" "properties_abi$major"
  fi
done
# relocatable: the folder travels
for f in "$out"/programs/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  case $f in *_abi1[12]) continue ;; esac
  patchelf --set-rpath '$ORIGIN/../lib' "$f"
done

echo "gpu: cudastub patch of the programs linked to NVIDIA's libraries"
for f in "$out"/programs/*_real "$out"/programs/libplugin_real.so; do
  name=$(basename "$f")
  cp "$f" "$out/patched/${name%_real}"
done
"$cli" patch --strict --stub-dir "$out/patched/lib" "$out/patched" >/dev/null
# the same, every stub in one file (libcudastub_cu<abi>), when the build
# made it
if [ -e "$build/lib/libcudastub_cu$abi.so" ]; then
  echo "gpu: cudastub patch --combined of the same programs"
  mkdir -p "$out/combined"
  for f in "$out"/programs/*_real "$out"/programs/libplugin_real.so; do
    name=$(basename "$f")
    cp "$f" "$out/combined/${name%_real}"
  done
  "$cli" patch --strict --combined --stub-dir "$out/combined/lib" "$out/combined" >/dev/null
fi
# the copies of the stubs travel without their debug information (the
# build keeps it): the folder is then about 15 MB, not 28
find "$out" -type f \( -name 'lib*_stub_cu*.so' -o -name 'libcudastub*.so' -o -path "$out/shim/*" \) \
  -exec strip --strip-debug {} +
du -sh "$out"
