#!/usr/bin/env bash
# Kernel registration at scale: what N kernels cost to
# register, through the runtime stub (recorded, then replayed into NVIDIA's
# runtime at the first call) and directly (NVIDIA's runtime registers
# them). register_kernels.c registers one fat binary and N functions, then
# makes one cheap call; callgrind counts inside register_all and
# first_call, for N and for 2N kernels, so that the process, the search
# and the load cancel:
#   per kernel = (count_2N - count_N) / N
# and the heap the registration took (the program's own mallinfo2 count,
# before the call), per kernel at N. Prints table rows.
#
#   bench/measure/registration.sh BUILD_DIR [N...]   (default 1000 10000 50000)
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 50000)
measurement="kernel registration, instructions per kernel (N vs 2N)"
memory="kernel registration, heap bytes per kernel"

# counted KIND N [threaded]: the instructions of register_all and first_call
counted() {
  local out=$work/register_$1_$2${3:+_$3}
  run_callgrind "$out" --toggle-collect=register_all --toggle-collect=first_call \
    "$bench/bench_register_$1" "$2" ${3:+"$3"} && instructions "$out"
}

# heap KIND N: the heap bytes the registration of N kernels took
heap() {
  "$bench/bench_register_$1" "$2" | sed -n 's/.*heap_bytes=\([0-9]*\).*/\1/p'
}

if [ ! -x "$bench/bench_register_stub" ] || [ ! -x "$bench/bench_register_direct" ]; then
  not_measured "$measurement" "record and replay" \
    "no registration programs (they need nvcc and the toolkit's libcudart)"
  exit 0
fi
for n in "${sizes[@]}"; do
  label="N=$(grouped "$n")"
  if ! stub_n=$(counted stub "$n") || ! stub_2n=$(counted stub $((2 * n))) ||
    ! direct_n=$(counted direct "$n") || ! direct_2n=$(counted direct $((2 * n))); then
    not_measured "$measurement" "$label" "a run failed (its log is above)"
    continue
  fi
  awk -v m="$measurement" -v label="$label" -v n="$n" \
    -v s1="$stub_n" -v s2="$stub_2n" -v d1="$direct_n" -v d2="$direct_2n" 'BEGIN {
      stub = (s2 - s1) / n
      direct = (d2 - d1) / n
      printf "| %s | %s, recorded then replayed through the stub | %.1f | NVIDIA'"'"'s registration, linked directly | %.1f | ×%.3f (target ×1.05) |\n",
        m, label, stub, direct, stub / direct
    }'
  # the same with a second thread alive: the record takes the lock
  if stub_n=$(counted stub "$n" threaded) && stub_2n=$(counted stub $((2 * n)) threaded) &&
    direct_n=$(counted direct "$n" threaded) && direct_2n=$(counted direct $((2 * n)) threaded); then
    awk -v m="$measurement" -v label="$label" -v n="$n" \
      -v s1="$stub_n" -v s2="$stub_2n" -v d1="$direct_n" -v d2="$direct_2n" 'BEGIN {
        stub = (s2 - s1) / n
        direct = (d2 - d1) / n
        printf "| %s | %s, a second thread alive: recorded under the lock, then replayed | %.1f | NVIDIA'"'"'s registration, linked directly, a second thread alive | %.1f | ×%.3f (target ×1.05) |\n",
          m, label, stub, direct, stub / direct
      }'
  else
    not_measured "$measurement" "$label, a second thread alive" "a run failed (its log is above)"
  fi
  stub_heap=$(heap stub "$n")
  direct_heap=$(heap direct "$n")
  awk -v m="$memory" -v label="$label" -v n="$n" -v s="$stub_heap" -v d="$direct_heap" 'BEGIN {
    printf "| %s | %s, the stub'"'"'s records | %.1f | NVIDIA'"'"'s registration | %.1f | ×%.2f (target ≤ ×1) |\n",
      m, label, s / n, d / n, s / d
  }'
done
