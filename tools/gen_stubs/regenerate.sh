#!/usr/bin/env bash
# Regenerates what is made from NVIDIA's headers and libraries and
# committed: the per-release ABI records and export lists (data/, from the
# real headers and libraries), then the reference tables rendered from the
# specs and the records (docs/reference/). The build itself reads only
# specs/ and data/.
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
data=$out/data
mkdir -p "$data/abi" "$data/exports"
if [ "$out" != "$src" ]; then
  cp -r "$src/data/." "$data/"
fi

# The recorded versions and where each one's headers and libraries are:
# data, in data/versions (docs/adding-a-major.md).
versions=()
declare -A include libdir own_include driver_dir
driver_versions=()
# fixtures/... and toolkit/... as folders of this machine (a comma-separated
# list of them: the same, separated by spaces)
where() {
  local one out=()
  [ "$1" = - ] && return
  for one in ${1//,/ }; do
    case $one in
      fixtures/*) out+=("$fixtures/${one#fixtures/}") ;;
      toolkit/*) out+=("$toolkit/${one#toolkit/}") ;;
      *) echo "regenerate.sh: data/versions: $one is neither fixtures/ nor toolkit/" >&2; exit 2 ;;
    esac
  done
  echo "${out[*]}"
}

# The file name in the first of the folders (a space-separated list) that
# holds it, or nothing.
first_holding() {
  local folder name=$1
  shift
  for folder in $*; do
    [ -f "$folder/$name" ] && { echo "$folder/$name"; return; }
  done
  return 0
}
while read -r first second third; do
  case $first in
    '' | '#'*) continue ;;
    driver)
      driver_versions+=("$second")
      driver_dir[$second]=$(where "$third")
      ;;
    headers)
      read -r version folder <<<"$third"
      own_include["$second $version"]=$(where "$folder")
      ;;
    *)
      versions+=("$first")
      include[$first]=$(where "$second")
      libdir[$first]=$(where "$third")
      ;;
  esac
done <"$src/data/versions"

# The version a header folder really holds, from cuda.h: 13.0 -> 13000.
cuda_version() { awk '/^#define CUDA_VERSION / { print $3 }' "$1/cuda.h" 2>/dev/null; }

# Every spec is a library.
for spec in "$src"/specs/*.spec; do
  lib=$(basename "$spec" .spec)
  # one SONAME for every version (major 0): a driver, listed apart
  driver=0
  $gen soname --spec "$spec" --major 0 >/dev/null 2>&1 && driver=1
  own_header=$($gen header --spec "$spec")
  for v in "${versions[@]}"; do
    want=$((${v%.*} * 1000 + ${v#*.} * 10))
    # the library's own header folder for v (data/versions: headers) first;
    # then the release's: the CUDA headers (cuda.h) first, then those NVIDIA
    # packages apart (CUPTI's, cuFile's), each given to the parse
    own=${own_include["$lib $v"]:-}
    read -r -a folders <<<"${include[$v]}"
    cuda_dir=${folders[0]:-/nonexistent} includes=()
    [ -n "$own" ] && includes+=(-I "$own")
    for one in "${folders[@]}"; do includes+=(-I "$one"); done
    if [ -f "$cuda_dir/cuda.h" ] && [ -z "$(first_holding "$own_header" $own "${folders[@]}")" ]; then
      # that release has no such library (nvJitLink before 12.0), or its
      # header was not at hand (NVML's, without its headers line)
      [ -n "$own" ] && echo "regenerate.sh: no $own_header in $own; $lib-$v.abi kept as committed" >&2
      continue
    elif [ -f "$cuda_dir/cuda.h" ] && [ "$(cuda_version "$cuda_dir")" = "$want" ]; then
      $gen abi --spec "$spec" "${includes[@]}" --version "$v" -o "$data/abi/$lib-$v.abi"
    else
      echo "regenerate.sh: no CUDA $v headers at ${include[$v]}; $lib-$v.abi kept as committed" >&2
    fi
    # the real file: the SONAME the spec gives this major
    name=$($gen soname --spec "$spec" --major "${v%.*}") || continue
    dir=${libdir[$v]}
    if [ $driver = 1 ]; then
      # one SONAME for every version: a driver's package holds it, for
      # the version that driver supports (libcuda.so.1, NVML); another such
      # library (libnvToolsExt.so.1) is a file some releases ship and
      # others lack
      here=$(first_holding "$name" $dir) || true
      there=""
      if [ -n "${driver_dir[$v]:-}" ]; then
        there=$(first_holding "$name" ${driver_dir[$v]}) || true
      fi
      if [ -n "$there" ] || { [ -n "${driver_dir[$v]:-}" ] && [ -z "$here" ]; }; then
        dir=${driver_dir[$v]}
      elif [ -z "$here" ]; then
        continue
      fi
    fi
    if [ -z "$dir" ]; then
      continue # headers only: the record is taken at its word
    fi
    file=$(first_holding "$name" $dir)
    if [ -n "$file" ]; then
      $gen exports "$file" --spec "$spec" --soname "$name" -o "$data/exports/lib$lib-$v.exports"
    else
      echo "regenerate.sh: no $name in $dir; lib$lib-$v.exports kept as committed" >&2
    fi
  done
  # a driver whose CUDA version no record has (535's 12.2): its list only
  if [ $driver = 1 ]; then
    name=$($gen soname --spec "$spec" --major 0)
    for v in "${driver_versions[@]}"; do
      [[ " ${versions[*]} " == *" $v "* ]] && continue
      file=$(first_holding "$name" ${driver_dir[$v]})
      if [ -n "$file" ]; then
        $gen exports "$file" --spec "$spec" --soname "$name" -o "$data/exports/lib$lib-$v.exports"
      elif [ -f "$data/exports/lib$lib-$v.exports" ]; then
        echo "regenerate.sh: no $name in ${driver_dir[$v]}; lib$lib-$v.exports kept as committed" >&2
      fi
    done
  fi
done

# docs/reference: the tables rendered from the specs and the records.
$gen docs --specs "$src/specs" --data "$data" --out "$out/docs/reference"
