#!/usr/bin/env bash
# fork() during a storm of first calls (fork_soak.c): RUNS processes through
# the stubs and RUNS linked directly to NVIDIA's libraries, each with
# THREADS threads making first calls across five libraries while another
# thread forks CHILDREN children, whose own first calls follow. Counts, each
# way, the children that hung (their alarm ended them), crashed, answered
# an error, or failed otherwise, and the runs whose own process did not
# end (a 120 s limit). Target: none hung and none crashed through the
# stubs where linked directly none did. Prints table rows.
#
#   bench/measure/fork_soak.sh BUILD_DIR [RUNS [THREADS [CHILDREN]]]   (default 300 255 4)
# shellcheck source=bench/measure/common.sh
source "$(dirname "$0")/common.sh"
runs=${2:-300}
threads=${3:-255}
children=${4:-4}
measurement="fork() during a first-call storm ($threads threads, five libraries), children of $runs runs"

# soak KIND [NAME=VALUE...]: "ok unavailable hung crashed failed stuck"
# summed over RUNS runs of bench_fork_soak_KIND
soak() {
  local program=$bench/bench_fork_soak_$1 line
  shift
  for _ in $(seq "$runs"); do
    if ! line=$(env "$@" timeout -s KILL 120 "$program" "$threads" "$children" 2>>"$work/soak.log"); then
      echo "stuck"
      continue
    fi
    echo "$line"
  done | awk '
    $1 == "stuck" { stuck++; next }
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); sum[kv[1]] += kv[2] } }
    END { printf "%d %d %d %d %d %d\n", sum["ok"], sum["unavailable"], sum["hung"],
            sum["crashed"], sum["failed"], stuck }'
}

if [ ! -x "$bench/bench_fork_soak_stub" ] || [ ! -x "$bench/bench_fork_soak_direct" ]; then
  not_measured "$measurement" "hung and crashed children" \
    "no soak programs (they need the five stubs and the real libraries)"
  exit 0
fi
# the stub finds the driver where the fixture is, as the direct program links it
variables=()
if real=$(real_library driver) && [ -n "$real" ]; then
  variables=("LD_LIBRARY_PATH=$(dirname "$real")")
fi
read -r s_ok s_unavailable s_hung s_crashed s_failed s_stuck < <(soak stub "${variables[@]}")
read -r d_ok d_unavailable d_hung d_crashed d_failed d_stuck < <(soak direct)
total=$((runs * children))
row "$measurement" "through the stubs: hung, crashed (of $total children)" \
  "$s_hung, $s_crashed" "linked directly" "$d_hung, $d_crashed" \
  "$([ "$s_hung" -le "$d_hung" ] && [ "$s_crashed" -le "$d_crashed" ] && echo "holds" ||
    echo "does not hold") (target: none where linked directly none)"
row "$measurement" "through the stubs: answered, of which with an error; failed; runs stuck" \
  "$((s_ok + s_unavailable)), $s_unavailable; $s_failed; $s_stuck" "linked directly" \
  "$((d_ok + d_unavailable)), $d_unavailable; $d_failed; $d_stuck" ""
