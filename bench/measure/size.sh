#!/usr/bin/env bash
# Item 5: the size of each stub once stripped, against NVIDIA's library
# (stripped the same way) for scale. Prints table rows.
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
