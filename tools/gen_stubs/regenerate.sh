#!/usr/bin/env bash
# Regenerates every committed generated file: the per-major ABI records and
# export lists (from the real headers and libraries), then the wrappers.
#
#   tools/gen_stubs/regenerate.sh [--out DIR] [--fixtures DIR] [--toolkit DIR]
#
# --out writes into a copy of the tree layout under DIR instead of the
# source tree (the regeneration test compares the two). A record whose
# headers or library are not at hand is left as committed, and said so.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$src
fixtures=${CUDASTUB_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudastub-fixtures}
toolkit=/usr/local/cuda
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --fixtures) fixtures=$2; shift 2 ;;
    --toolkit) toolkit=$2; shift 2 ;;
    *) echo "regenerate.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
py=/usr/bin/python3 # Debian's, which has python3-clang
gen="$py $src/tools/gen_stubs/gen_stubs.py"
data=$out/tools/gen_stubs/data
mkdir -p "$data/abi" "$data/exports"
if [ "$out" != "$src" ]; then
  cp -r "$src/tools/gen_stubs/data/." "$data/"
fi

# The recorded versions, oldest first. A major's oldest is what its stubs
# are built from; a later minor of the same major (12.5) only adds what its
# headers declare to the gating (docs/adding-a-major.md).
versions=(11.8 12.4 12.5 13.0)
# version -> include folder, library folder (none: no export list)
declare -A include=(
  [11.8]=$fixtures/headers-11.8/usr/include
  [12.4]=$fixtures/headers-12.4/usr/include
  [12.5]=$fixtures/headers-12.5/usr/include
  [13.0]=$toolkit/include
)
declare -A libdir=(
  [11.8]=$fixtures/cuda-11.8/usr/lib/x86_64-linux-gnu
  [12.4]=$fixtures/cuda-12.4/usr/lib/x86_64-linux-gnu
  [13.0]=$toolkit/lib64
)
libraries=(nvrtc cudart cuda)
# The driver is not part of a toolkit: its export list comes from Debian's
# driver 550, whose libcuda.so.1 supports CUDA 12.4, and from no other.
driver_dir=$fixtures/driver-550/usr/lib/x86_64-linux-gnu/nvidia/current

# The version a header folder really holds, from cuda.h: 13.0 -> 13000.
cuda_version() { awk '/^#define CUDA_VERSION / { print $3 }' "$1/cuda.h" 2>/dev/null; }

for lib in "${libraries[@]}"; do
  spec=$src/tools/gen_stubs/specs/$lib.spec
  for v in "${versions[@]}"; do
    want=$((${v%.*} * 1000 + ${v#*.} * 10))
    if [ -f "${include[$v]}/cuda.h" ] && [ "$(cuda_version "${include[$v]}")" = "$want" ]; then
      $gen abi --spec "$spec" -I "${include[$v]}" --version "$v" -o "$data/abi/$lib-$v.abi"
    else
      echo "regenerate.sh: no CUDA $v headers at ${include[$v]}; $lib-$v.abi kept as committed" >&2
    fi
    # the real file: the SONAME the spec gives this major
    name=$($gen soname --spec "$spec" --major "${v%.*}") || continue
    dir=${libdir[$v]:-}
    if [ "$lib" = cuda ]; then
      [ "$v" = 12.4 ] || continue
      dir=$driver_dir
    fi
    if [ -z "$dir" ]; then
      continue # headers only: the record is taken at its word
    elif [ -f "$dir/$name" ]; then
      $gen exports "$dir/$name" --soname "$name" -o "$data/exports/lib$lib-$v.exports"
    else
      echo "regenerate.sh: no $dir/$name; lib$lib-$v.exports kept as committed" >&2
    fi
  done
  folder=$($gen folder --spec "$spec")
  $gen stubs --spec "$spec" --data "$data" --out "$out/stubs/$folder/generated"
done

# README.md quotes the generated ABI tables; keep the copy in step.
$py "$src/tools/gen_stubs/readme_blocks.py" --readme "$src/README.md" --tree "$out" \
  --output "$out/README.md"
