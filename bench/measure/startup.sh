#!/usr/bin/env bash
# Start-up of a program that links a library and never calls it
# (idle_program.c), for each stub and each real library, against one that
# links an empty one-function library and one that links nothing:
#   - the whole process's instructions, counted by callgrind;
#   - for ten stubs in one process, two floors: ten empty libraries, and
#     ten plain trampoline tables of the same exports (plain_table.sh,
#     Implib.so's form, built here; x86-64), linked the same way;
#   - the median wall time of RUNS starts, all programs in turn
#     (bench_startup_compare), so that a drift of the machine touches
#     every program alike.
# Prints table rows.
#
#   bench/measure/startup.sh BUILD_DIR [RUNS]
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
runs=${2:-300}
counted="start-up instructions, whole process"
timed="start-up wall time, median of $runs"

declare -A program_of=([nothing]=$bench/bench_idle_nothing [empty]=$bench/bench_idle_empty)
declare -A label_of=([nothing]="nothing linked" [empty]="empty library")
subjects=(nothing empty)
for library in "${libraries[@]}"; do
  program_of[${library}_stub]=$bench/bench_idle_${library}_stub
  label_of[${library}_stub]=$(basename "${stub_file[$library]}")
  subjects+=("${library}_stub")
  real=$(real_library "$library")
  if [ -n "$real" ]; then
    program_of[${library}_real]=$bench/bench_idle_${library}_real
    label_of[${library}_real]=$(basename "$real")
    subjects+=("${library}_real")
  fi
done

if [ -x "$bench/bench_idle_ten_stubs" ]; then
  program_of[ten_stubs]=$bench/bench_idle_ten_stubs
  label_of[ten_stubs]="ten stubs (runtime, NVRTC, driver, nvJitLink, cuBLAS, cuBLASLt, cuFFT, cuRAND, cuSPARSE, cuSOLVER)"
  subjects+=(ten_stubs)
fi

# ten_plain_tables: a program linking a plain table of each of the ten
# stubs (their exports, versions and SONAMEs), none called; its path, or
# nothing where a table could not be built
ten_plain_tables() {
  local dir=$work/plain_tables stub table soname
  mkdir -p "$dir/lib"
  for stub in $(ldd "$bench/bench_idle_ten_stubs" | awk '$1 ~ /_stub_cu[0-9]+(-[0-9a-f]+)?\.so/ { print $3 }'); do
    table=$("$src/bench/measure/plain_table.sh" "$stub" "$dir" 2>>"$dir/log") || return 0
    soname=$(readelf -d "$table" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    cp "$table" "$dir/lib/$soname"
  done
  [ "$(find "$dir/lib" -type f | wc -l)" = 10 ] || return 0
  gcc -O2 -DBENCH_LIBRARY_NONE -I"$src/bench" -o "$dir/program" "$src/bench/idle_program.c" \
    -Wl,--no-as-needed "$dir"/lib/* -Wl,--as-needed "-Wl,-rpath,$dir/lib" 2>>"$dir/log" &&
    echo "$dir/program"
}

if [ -x "$bench/bench_idle_ten_stubs" ]; then
  program_of[ten_empty]=$bench/bench_idle_ten_empty
  label_of[ten_empty]="ten empty libraries"
  subjects+=(ten_empty)
  plain_program=$(ten_plain_tables)
  if [ -n "$plain_program" ]; then
    program_of[ten_plain]=$plain_program
    label_of[ten_plain]="ten plain trampoline tables"
    subjects+=(ten_plain)
  fi
fi

if [ -x "$bench/bench_idle_combined" ]; then
  program_of[combined]=$bench/bench_idle_combined
  label_of[combined]="every stub in one file (libcudastub_cu$abi.so: the ten above and the build's others)"
  subjects+=(combined)
fi

declare -A count_of median_of
for subject in "${subjects[@]}"; do
  if run_callgrind "$work/$subject" "${program_of[$subject]}"; then
    count_of[$subject]=$(instructions "$work/$subject")
  fi
done
programs=()
for subject in "${subjects[@]}"; do programs+=("${program_of[$subject]}"); done
if "$bench/bench_startup_compare" "$runs" "${programs[@]}" >"$work/times"; then
  for subject in "${subjects[@]}"; do
    median_of[$subject]=$(awk -v program="${program_of[$subject]}" '$4 == program { print $1 }' "$work/times")
  done
fi

# compare SUBJECT BASELINE [TARGET]: the two rows of SUBJECT against BASELINE
compare() {
  local subject=$1 baseline=$2 target=${3:-}
  local label=${label_of[$subject]} base_label=${label_of[$baseline]}
  if [ -n "${count_of[$subject]:-}" ] && [ -n "${count_of[$baseline]:-}" ]; then
    row "$counted" "$label" "$(grouped "${count_of[$subject]}")" "$base_label" \
      "$(grouped "${count_of[$baseline]}")" \
      "$(grouped $((count_of[$subject] - count_of[$baseline])) +)$target"
  else
    not_measured "$counted" "$label" "a run failed (its log is above)"
  fi
  if [ -n "${median_of[$subject]:-}" ] && [ -n "${median_of[$baseline]:-}" ]; then
    awk -v timed="$timed" -v label="$label" -v base_label="$base_label" \
      -v s="${median_of[$subject]}" -v b="${median_of[$baseline]}" 'BEGIN {
      printf "| %s | %s | %.0f us | %s | %.0f us | ×%.2f |\n", timed, label, s, base_label, b, s / b
    }'
  else
    not_measured "$timed" "$label" "the timed starts failed"
  fi
}

compare empty nothing
for library in "${libraries[@]}"; do
  compare "${library}_stub" empty " (target ≤ +30,000)"
  if [ -n "${program_of[${library}_real]:-}" ]; then
    compare "${library}_real" empty
  fi
done
if [ -n "${program_of[ten_stubs]:-}" ]; then
  compare ten_stubs nothing
  compare ten_empty nothing " (the floor of any ten files)"
  if [ -n "${program_of[ten_plain]:-}" ]; then
    compare ten_plain nothing " (Implib.so's form of the same exports)"
    if [ -n "${count_of[ten_stubs]:-}" ] && [ -n "${count_of[ten_plain]:-}" ]; then
      awk -v m="$counted" -v s="${count_of[ten_stubs]}" -v p="${count_of[ten_plain]}" \
        -v n="${count_of[nothing]}" 'BEGIN {
        printf "| %s | ten stubs, over nothing linked | +%d | ten plain trampoline tables, over nothing linked | +%d | ×%.2f (target ≤ ×1.25) |\n",
          m, s - n, p - n, (s - n) / (p - n)
      }'
    fi
  else
    not_measured "$counted" "ten plain trampoline tables" "not built (x86-64 only, or plain_table.sh failed)"
  fi
else
  not_measured "$counted" "ten stubs" "the build made no bench_idle_ten_stubs (a stub missing)"
fi
if [ -n "${program_of[combined]:-}" ]; then
  compare combined nothing " (target ≤ +150,000)"
else
  not_measured "$counted" "every stub in one file" "the build made no libcudastub_cu$abi.so"
fi
