#!/bin/sh
# A debugger sees through the forwarder: stopped in dlopen during a
# program's first call of a stub function, gdb's backtrace passes the
# resolver and the bind and reaches main (the export, its resolve stub and
# cudastub_asm_resolve are assembly; the resolver's unwind information
# carries the walk on to the caller). Where readelf is, the resolver's
# object must have a frame description entry of its own.
#
#   first_call_backtrace.sh GDB PROGRAM STUB
# Exits 77 (skipped) where there is no gdb; with CI=true that is a failure.
set -u
gdb=$1 program=$2 stub=$3
# the unwind information: an FDE that starts at the resolver
if command -v readelf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
	at=$(nm "$stub" | awk '$3 == "cudastub_asm_resolve" { print $1 }')
	if [ -z "$at" ] || ! readelf --debug-dump=frames "$stub" | grep -q "FDE .* pc=$at\.\."; then
		echo "FAIL: $stub has no unwind information for cudastub_asm_resolve (at ${at:-?})"
		exit 1
	fi
	echo "cudastub_asm_resolve has its frame description at $at"
fi
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
