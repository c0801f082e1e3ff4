#!/usr/bin/env bash
# The baseline of a stub's size and start-up: a plain trampoline
# table for the same exports, in the form Implib.so generates, built here
# from the stub's own export list and symbol versions:
#   - per export, an exported `jmp *table[i]` and a lazy entry
#     (`push i; jmp resolver`) that the table points to at first;
#   - the table, the export names, and one resolver in C that dlopens the
#     library by its SONAME and dlsyms the name (no search, no diagnostics,
#     no adapters: what the stub adds is what the comparison shows).
# x86-64 only. Prints the path of the stripped library it built.
#
#   bench/measure/plain_table.sh STUB_SO OUT_DIR
set -euo pipefail
stub=${1:?usage: $0 STUB_SO OUT_DIR}
out=${2:?usage: $0 STUB_SO OUT_DIR}
[ "$(uname -m)" = x86_64 ] || {
  echo "plain_table.sh: x86-64 only" >&2
  exit 1
}
name=$(basename "$stub" .so)
mkdir -p "$out"
exports=$out/$name.exports
# NAME VERSION, one per exported function
nm -D --defined-only "$stub" | awk '$2 == "T" || $2 == "W" || $2 == "i" {
    split($3, part, "@"); version = part[length(part)]
    print part[1], (length(part) > 1 ? version : "") }' | sort -u >"$exports"
soname=$(readelf -d "$stub" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
# the library it forwards to: the stub's version node names NVIDIA's SONAME
target=$(awk '$2 ~ /^lib.*\.so/ { print $2; exit }' "$exports")
target=${target:-$soname}

awk '{ names[NR - 1] = $1 } END {
  n = NR
  print "\t.text"
  for (i = 0; i < n; i++) {
    printf "\t.globl %s\n\t.type %s, @function\n\t.p2align 4\n%s:\n", names[i], names[i], names[i]
    printf "\tjmp *plain_table+%d(%%rip)\n\t.size %s, .-%s\n", 8 * i, names[i], names[i]
  }
  for (i = 0; i < n; i++)
    printf "\t.p2align 4\nplain_lazy_%d:\n\tpushq $%d\n\tjmp plain_lazy\n", i, i
  print "\t.p2align 4\nplain_lazy:"
  print "\tpushq %rdi\n\tpushq %rsi\n\tpushq %rdx\n\tpushq %rcx\n\tpushq %r8\n\tpushq %r9"
  print "\tmovq 48(%rsp), %rdi\n\tcall plain_resolve"
  print "\tpopq %r9\n\tpopq %r8\n\tpopq %rcx\n\tpopq %rdx\n\tpopq %rsi\n\tpopq %rdi"
  print "\taddq $8, %rsp\n\tjmp *%rax"
  print "\t.data\n\t.p2align 3\n\t.globl plain_table\n\t.hidden plain_table\nplain_table:"
  for (i = 0; i < n; i++) printf "\t.quad plain_lazy_%d\n", i
  print "\t.section .data.rel.ro,\"aw\"\n\t.p2align 3\n\t.globl plain_names\n\t.hidden plain_names\nplain_names:"
  for (i = 0; i < n; i++) printf "\t.quad plain_name_%d\n", i
  print "\t.section .rodata.str1.1,\"aMS\",@progbits,1"
  for (i = 0; i < n; i++) printf "plain_name_%d:\n\t.string \"%s\"\n", i, names[i]
  print "\t.section .note.GNU-stack,\"\",@progbits"
}' "$exports" >"$out/$name.plain.S"

cat >"$out/$name.resolve.c" <<C
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
extern void *plain_table[];
extern const char *const plain_names[];
__attribute__((visibility("hidden"))) void *plain_resolve(unsigned long i)
{
	static void *library;
	void *f;

	if (!library)
		library = dlopen("$target", RTLD_NOW | RTLD_GLOBAL);
	f = library ? dlsym(library, plain_names[i]) : NULL;
	if (!f)
		abort();
	plain_table[i] = f;
	return f;
}
C

# the stub's own version nodes, so that both carry the same versions
awk '$2 != "" { by[$2] = by[$2] "\t\t" $1 ";\n" } END {
  for (v in by) printf "%s {\n\tglobal:\n%s\tlocal: *;\n};\n", v, by[v] }' "$exports" >"$out/$name.map"
version_script=()
[ -s "$out/$name.map" ] && version_script=("-Wl,--version-script=$out/$name.map")
gcc -shared -fPIC -O2 -o "$out/$name.plain.so" "-Wl,-soname,$soname" "${version_script[@]}" \
  "$out/$name.plain.S" "$out/$name.resolve.c" -ldl
strip -o "$out/$name.plain.stripped.so" "$out/$name.plain.so"
echo "$out/$name.plain.stripped.so"
