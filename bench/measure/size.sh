#!/usr/bin/env bash
# The size of each stub once stripped, against NVIDIA's library
# (stripped the same way) for scale; and against a plain trampoline table
# for the same exports (plain_table.sh, Implib.so's form: at most
# twice). Prints table rows.
#
#   bench/measure/size.sh BUILD_DIR
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
measurement="stripped size"

# stripped_size FILE: bytes of a stripped copy of FILE
stripped_size() {
  local copy
  copy=$work/$(basename "$1")
  strip -o "$copy" "$1" && stat -c %s "$copy"
}

for library in "${libraries[@]}"; do
  stub=${stub_file[$library]}
  real=$(real_library "$library")
  if [ ! -f "$stub" ]; then
    not_measured "$measurement" "$(basename "$stub")" "not built"
    continue
  fi
  stub_size=$(stripped_size "$stub")
  if [ -z "$real" ]; then
    row "$measurement" "$(basename "$stub")" "$(grouped "$stub_size") B" "no real library found" "" ""
    continue
  fi
  real_size=$(stripped_size "$(readlink -f "$real")")
  ratio=$(awk -v s="$stub_size" -v r="$real_size" 'BEGIN { printf "×%.4f", s / r }')
  row "$measurement" "$(basename "$stub")" "$(grouped "$stub_size") B" \
    "$(basename "$real")" "$(grouped "$real_size") B" "$ratio"
done

plain="stripped size against a plain trampoline table of the same exports"
stubs=("${stub_file[nvrtc]}" "${stub_file[cudart]}" "${stub_file[driver]}")
for other in "$build"/lib/lib*_stub_cu"$abi".so "$build/lib/libcudastub_cu$abi.so"; do
  case " ${stubs[*]} " in *" $other "*) continue ;; esac
  [ -f "$other" ] && stubs+=("$other")
done
for stub in "${stubs[@]}"; do
  [ -f "$stub" ] || continue
  if ! table=$("$src/bench/measure/plain_table.sh" "$stub" "$work/plain" 2>"$work/plain.log"); then
    not_measured "$plain" "$(basename "$stub")" "no plain table built ($(tail -1 "$work/plain.log"))"
    continue
  fi
  stub_size=$(stripped_size "$stub")
  table_size=$(stat -c %s "$table")
  exports=$(wc -l <"$work/plain/$(basename "$stub" .so).exports")
  awk -v m="$plain" -v name="$(basename "$stub")" -v s="$stub_size" -v t="$table_size" \
    -v n="$exports" 'BEGIN {
      printf "| %s | %s (%d exports) | %d B | plain table | %d B | ×%.2f (target ≤ ×2) |\n", m, name, n, s, t, s / t
    }'
done
