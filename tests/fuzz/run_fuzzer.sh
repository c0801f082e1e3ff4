#!/usr/bin/env bash
# Runs one libFuzzer target for a fixed time from its seeds, in a corpus
# folder of its own, and keeps what it finds. Exit status: the fuzzer's
# (0 when nothing was found).
#
#   tests/fuzz/run_fuzzer.sh FUZZER SECONDS [SEED_FILE_OR_FOLDER...]
set -euo pipefail
fuzzer=$1 seconds=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/cudastub-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/found"
for seed in "$@"; do
  if [ -d "$seed" ]; then
    cp -r "$seed/." "$work/corpus/"
  elif [ -f "$seed" ]; then
    cp "$seed" "$work/corpus/"
  fi
done
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/found/" "$work/corpus" || status=$?
if [ $status != 0 ]; then
  # keep what crashed, where a person can find it, and print it
  keep=${CUDASTUB_FUZZ_FINDINGS:-$PWD/fuzz-findings}
  mkdir -p "$keep"
  cp -r "$work/found/." "$keep/"
  echo "run_fuzzer.sh: $(basename "$fuzzer") found a failure; inputs kept in $keep:" >&2
  ls -l "$keep" >&2
fi
exit $status
