#!/bin/sh
# Compares the dynamic symbols every stub and shim of a build exports
# (nm -D --defined-only: kind, name and version) with the lists committed
# under tests/data/exports/<arch>/, one per library and CUDA ABI:
#   cu<major>/<lib>.exports              lib/lib<lib>_stub_cu<major>-<tag>.so
#   cu<major>/shim/[driver/]<SONAME>.exports  shim/cu<major>/[driver/]<SONAME>
# A change to how the stubs are made must leave these lists exactly as they
# are; a new stub's list is recorded with --record.
#
#   check_exports.sh NM BUILD_DIR LISTS_DIR            compare
#   check_exports.sh --record NM BUILD_DIR LISTS_DIR   write the missing lists
#
# The files are those BUILD_DIR/stub-files.txt names. A list whose stub
# this build does not make (CUDASTUB_LIBRARIES or
# CUDASTUB_ABIS left it out) is named and left out, and so is a stub or
# shim with no list; the test fails when a built one differs, or when no
# list could be compared at all.
set -eu

record=0
if [ "$1" = "--record" ]; then
	record=1
	shift
fi
nm=$1 build=$2 lists=$3

# kind, name@version; the address says nothing about the ABI
exports_of() {
	"$nm" -D --defined-only "$1" | awk '{ print $(NF - 1), $NF }' | LC_ALL=C sort
}

# The list of a built file (a path under the build), or nothing.
list_of() {
	case $1 in
	lib/lib*_stub_cu*-*.so)
		stem=${1#lib/lib}
		lib=${stem%%_stub_cu*}
		major=${stem#*_stub_cu}
		echo "cu${major%%-*}/$lib.exports"
		;;
	shim/cu*/*)
		rest=${1#shim/}
		echo "${rest%%/*}/shim/${rest#*/}.exports"
		;;
	esac
}

compared=0 differ=0 absent=0 new=0
tmp=$(mktemp)
made=$(mktemp) # the lists of the files built, one a line
trap 'rm -f "$tmp" "$made"' EXIT
# the files this build's configuration makes (stubs/CMakeLists.txt), as
# paths under the build; a file an earlier one left in lib/ is none of them
built=$(sed "s#^$build/##" "$build/stub-files.txt")
for file in $(echo "$built" | LC_ALL=C sort); do
	list=$(list_of "$file")
	[ -n "$list" ] || continue
	echo "$list" >>"$made"
	if [ ! -f "$lists/$list" ]; then
		if [ "$record" = 1 ]; then
			mkdir -p "$(dirname "$lists/$list")"
			exports_of "$build/$file" >"$lists/$list"
			echo "recorded: $list"
		else
			echo "no list yet: $list ($file; record it with --record)"
		fi
		new=$((new + 1))
		continue
	fi
	exports_of "$build/$file" >"$tmp"
	compared=$((compared + 1))
	if ! diff -u "$lists/$list" "$tmp" >/dev/null; then
		echo "DIFFERS: $list ($file)"
		diff -u "$lists/$list" "$tmp" | head -40
		differ=$((differ + 1))
	fi
done
for list in $(cd "$lists" && find . -name '*.exports' | LC_ALL=C sort); do
	list=${list#./}
	if ! grep -qxF "$list" "$made"; then
		echo "not built here: $list"
		absent=$((absent + 1))
	fi
done
echo "$compared stubs and shims compared, $differ differ, $absent lists not built here," \
	"$new built without a list"
[ "$record" = 1 ] || { [ "$compared" -gt 0 ] && [ "$differ" = 0 ]; }
