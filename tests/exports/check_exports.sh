#!/bin/sh
# Compares the dynamic symbols every stub and shim of a build exports
# (nm -D --defined-only: kind, name and version) with the lists committed
# under tests/data/exports/<arch>/, one per library, named after its path
# in the build tree. A change to how the exports are made (issue 21: the
# generated code as a table) must leave these lists exactly as they were.
#
#   check_exports.sh NM BUILD_DIR LISTS_DIR [ABI]    compare
#   check_exports.sh --record NM BUILD_DIR LISTS_DIR write the lists
#
# The lists are the 13.0-ABI build's. A build of another ABI (ABI: its
# major) compares only what it builds with the same headers as that one:
# the stubs under tests/, each built from fetched headers of its own.
#
# A list whose library this build does not make (a library switched off,
# a fixture missing) is named and left out; the test fails when a built
# library differs, or when no list could be compared at all.
set -eu

record=0
if [ "$1" = "--record" ]; then
	record=1
	shift
fi
nm=$1 build=$2 lists=$3 abi=${4:-13}

# kind, name@version; the address says nothing about the ABI
exports_of() {
	"$nm" -D --defined-only "$1" | awk '{ print $(NF - 1), $NF }' | LC_ALL=C sort
}

if [ "$record" = 1 ]; then
	mkdir -p "$lists"
	(cd "$build" && find . -type f \( -name '*_stub.so' -o -path '*/shim/*.so*' \) |
		LC_ALL=C sort) | while read -r lib; do
		out="$lists/${lib#./}.exports"
		mkdir -p "$(dirname "$out")"
		exports_of "$build/$lib" >"$out"
	done
	exit 0
fi

compared=0 differ=0 absent=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for list in $(cd "$lists" && find . -name '*.exports' | LC_ALL=C sort); do
	lib=${list%.exports}
	case $abi:$lib in
	13:* | *:./tests/*) ;;
	*)
		echo "not compared: ${lib#./} (the lists are the 13.0-ABI build's; this one is $abi)"
		absent=$((absent + 1))
		continue
		;;
	esac
	if [ ! -f "$build/$lib" ]; then
		echo "not built here: ${lib#./}"
		absent=$((absent + 1))
		continue
	fi
	exports_of "$build/$lib" >"$tmp"
	compared=$((compared + 1))
	if ! diff -u "$lists/$list" "$tmp" >/dev/null; then
		echo "DIFFERS: ${lib#./}"
		diff -u "$lists/$list" "$tmp" | head -40
		differ=$((differ + 1))
	fi
done
echo "$compared libraries compared, $differ differ, $absent not built here"
[ "$compared" -gt 0 ] && [ "$differ" = 0 ]
