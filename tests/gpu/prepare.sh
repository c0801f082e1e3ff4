#!/usr/bin/env bash
# Prepares the GPU suite on a machine without a GPU: the end-to-end CUDA
# programs of tests/e2e/programs, built by nvcc for the GPUs of today
# (SASS for sm_80 and sm_90, PTX for compute_90) twice, linked to NVIDIA's
# libcudart.so.13 and to the stub, with a RUNPATH of $ORIGIN/../lib; and in
# lib/ the stubs and NVIDIA's runtime (the toolkit's 13 and, when the
# fixture is there, Debian's 12.4 in lib12/). Nothing of NVIDIA's is
# committed: OUT is an ignored folder that travels to the GPU machine,
# where tests/gpu/run.sh runs it.
#
#   tests/gpu/prepare.sh BUILD_DIR OUT [NVCC]
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
nvcc=${3:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=${CUDASTUB_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudastub-fixtures}
runtime=$(dirname "$(readlink -f "$(dirname "$nvcc")/../lib64/libcudart.so.13")")

rm -rf "$out" && mkdir -p "$out/lib" "$out/bin"
out=$(cd "$out" && pwd)
cp "$build/stubs/cudart/libcudart_stub.so" "$build/stubs/nvrtc/libnvrtc_stub.so" \
  "$build/stubs/cuda_driver/libcuda_stub.so" "$out/lib/"
cp -L "$runtime/libcudart.so.13" "$out/lib/"
if [ -e "$fixtures/cuda-12.4/usr/lib/x86_64-linux-gnu/libcudart.so.12" ]; then
  mkdir -p "$out/lib12"
  cp -L "$fixtures/cuda-12.4/usr/lib/x86_64-linux-gnu/libcudart.so.12" "$out/lib12/"
fi
# nvcc with the architectures of the GPUs the suite may meet
cat >"$out/bin/nvcc" <<WRAP
#!/bin/sh
exec '$nvcc' -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  -gencode arch=compute_90,code=compute_90 "\$@"
WRAP
chmod +x "$out/bin/nvcc"
echo "gpu: building the programs (nvcc, sm_80, sm_90, compute_90)"
"$here/../e2e/programs/build.sh" "$out/bin/nvcc" "$out/programs" "$out/lib" "$out/lib"
rm -f "$out"/programs/*.o
# relocatable: the folder travels
for f in "$out"/programs/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  patchelf --set-rpath '$ORIGIN/../lib' "$f"
done
du -sh "$out"
