#!/usr/bin/env bash
# The GPU suite, on a machine with an NVIDIA GPU and its driver: each
# program tests/gpu/prepare.sh built runs linked to NVIDIA's libcudart
# (<name>_real) and through the stub (<name>_stub, on the same
# libcudart.so.13: CUDASTUB_CUDART_PATH); their outputs must be
# the same, byte for byte (lazy's excepted: through the stub it maps no
# libcudart, which is its point). Then the stub runs each program once
# more on Debian's 12.4 runtime (CUDASTUB_CUDART_PATH), which no directly
# linked nvcc 13 program can do: reported, not compared.
#
#   tests/gpu/run.sh OUT
# Exit 0 when every program matched, 1 otherwise, 2 with no GPU.
set -uo pipefail
out=$(cd "$1" && pwd)
programs=(kernels managed rdc ptds plugin_host lazy)
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,compute_cap \
  --format=csv,noheader || { echo "gpu: no nvidia-smi"; exit 2; }
cd "$out/programs"
run() { # name variant: stdout and stderr, then the exit status
  local args=()
  [ "$1" = plugin_host ] && args=("$out/programs/libplugin_$2.so")
  timeout 120 "./$1_$2" "${args[@]}" 2>&1
  echo "exit: $?"
}
failed=0
printf '| program | NVIDIA libcudart 13 | through the stub | same output | stub on 12.4 |\n'
printf '| --- | --- | --- | --- | --- |\n'
for p in "${programs[@]}"; do
  (unset CUDASTUB_CUDART_PATH && run "$p" real) >"$out/$p.real"
  # the stub on the very runtime the real run loads
  (export CUDASTUB_CUDART_PATH=$out/lib/libcudart.so.13 && run "$p" stub) >"$out/$p.stub"
  if [ -e "$out/lib12/libcudart.so.12" ]; then
    (export CUDASTUB_CUDART_PATH=$out/lib12/libcudart.so.12 && run "$p" stub) >"$out/$p.stub12"
    twelve=$(tail -n 1 "$out/$p.stub12")
  else
    twelve="(no 12.4 runtime)"
  fi
  same=yes
  if [ "$p" = lazy ]; then
    # lazy's point: through the stub a program that makes no CUDA call maps
    # no libcudart; linked to NVIDIA's it does
    same="no, as meant"
    grep -qx 'libcudart.so mapped: 0' "$out/$p.stub" &&
      grep -qx 'libcudart.so mapped: 1' "$out/$p.real" || { same=NO; failed=1; }
  else
    cmp -s "$out/$p.real" "$out/$p.stub" || { same=NO; failed=1; }
  fi
  printf '| %s | %s | %s | %s | %s |\n' "$p" "$(tail -n 1 "$out/$p.real")" \
    "$(tail -n 1 "$out/$p.stub")" "$same" "$twelve"
done
for p in "${programs[@]}"; do
  if [ "$p" != lazy ] && ! cmp -s "$out/$p.real" "$out/$p.stub"; then
    echo "== $p: NVIDIA's run, then the stub's"
    diff "$out/$p.real" "$out/$p.stub" | head -40
  fi
done
for p in "${programs[@]}"; do
  echo "== $p, NVIDIA's run"
  head -40 "$out/$p.real"
  [ -e "$out/$p.stub12" ] && { echo "== $p, the stub on 12.4"; head -20 "$out/$p.stub12"; }
done
exit $failed
