#!/bin/sh
# A debugger sees through the forwarder: stopped in dlopen during a
# program's first call of a stub function, gdb's backtrace passes the
# resolver and the bind and reaches main (issue 21: the export, its resolve
# stub and cudastub_asm_resolve are assembly, and must not cut the stack).
#
#   first_call_backtrace.sh GDB PROGRAM
# Exits 77 (skipped) where there is no gdb; with CI=true that is a failure.
set -u
gdb=$1 program=$2
if [ -z "$gdb" ] || ! command -v "$gdb" >/dev/null 2>&1; then
	if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
		echo "FAIL: no gdb (apt-get install gdb), and CI=true requires it"
		exit 1
	fi
	echo "SKIP: no gdb (apt-get install gdb)"
	exit 77
fi
out=$("$gdb" -q -batch -nx -ex "set breakpoint pending on" -ex "break dlopen" -ex run \
	-ex bt "$program" 2>&1)
echo "$out" | grep '^#'
for frame in ' cudastub_bind_slot ' ' cudastub_asm_resolve ' ' main '; do
	if ! echo "$out" | grep '^#' | grep -q "$frame"; then
		echo "FAIL: no frame${frame}in the backtrace"
		echo "$out" | tail -20
		exit 1
	fi
done
echo "the backtrace from dlopen reaches main"
