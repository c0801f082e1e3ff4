#!/usr/bin/env bash
# Builds the end-to-end CUDA programs of this folder twice with nvcc: once
# linked to NVIDIA's libcudart (<name>_real) and once to the stub
# (<name>_stub), as tests/e2e/test_nvcc_programs.c runs them; jit (NVRTC
# and the runtime) is built NVIDIA's way only, for `cudastub patch`.
#
#   build.sh NVCC OUT STUB RUNTIME_DIR [HOST_FLAG...]
#
# STUB: the runtime stub's file, linked by its path (its name carries its
# ABI and tag), found at run time through an RPATH to its folder.
#
# HOST_FLAG: extra host compiler flags for both (a sanitizer build's stub
# needs its sanitizer runtime in the program that loads it).
set -euo pipefail
nvcc=$1 out=$2 stub=$3 runtime_dir=$4
shift 4
stub_dir=$(dirname "$stub")
host=()
for flag in "$@"; do host+=(-Xcompiler "$flag"); done
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cd "$out"

declare -A link=(
  [real]="-cudart shared -L$runtime_dir -Xlinker -rpath=$runtime_dir"
  [stub]="-cudart none $stub -Xlinker -rpath=$stub_dir"
)
compile() { "$nvcc" -I"$src" "${host[@]}" "$@"; }

compile -c "$src/kernels.cu" -o kernels.o
compile -c "$src/managed.cu" -o managed.o
compile -c "$src/lazy.cu" -o lazy.o
compile -c "$src/many_kernels.cu" -o many_kernels.o
compile -c "$src/plugin_host.cu" -o plugin_host.o
compile --default-stream per-thread -c "$src/ptds.cu" -o ptds.o
compile -rdc=true -c "$src/rdc_main.cu" -o rdc_main.o
compile -rdc=true -c "$src/rdc_lib.cu" -o rdc_lib.o
compile -c "$src/jit.cu" -o jit.o
compile -Xcompiler -fPIC -c "$src/plugin.cu" -o plugin.o
# -cudart none turns nvcc's device link off, so a packager linking the
# stub runs it as a step of its own (the runtime is not involved in it)
compile -dlink rdc_main.o rdc_lib.o -o rdc_dlink.o
for variant in real stub; do
  # shellcheck disable=SC2086 # the link flags are words
  for program in kernels managed lazy plugin_host ptds many_kernels; do
    compile "$program.o" -o "${program}_$variant" ${link[$variant]}
  done
  # shellcheck disable=SC2086
  compile rdc_main.o rdc_lib.o rdc_dlink.o -o "rdc_$variant" ${link[$variant]}
  # shellcheck disable=SC2086
  compile -shared plugin.o -o "libplugin_$variant.so" ${link[$variant]}
done
# NVIDIA's only: the program `cudastub patch` turns to the stubs
# shellcheck disable=SC2086
compile jit.o -o jit_real ${link[real]} -lnvrtc
