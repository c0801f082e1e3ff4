/*
 * cudastub shim DIR [--abi N]...: the drop-in shims, made from this
 * cudastub's stubs where they are wanted, so that nothing ships them as
 * second copies (a wheel holds the stubs once). DIR gets the layout a
 * build's shim/ has: cu<N>/ with each library's shim under NVIDIA's SONAME
 * for that ABI, the driver's apart in cu<N>/driver/ and NVML's in
 * cu<N>/nvml/, so that LD_LIBRARY_PATH=DIR/cu<N> stands in for the
 * toolkit's libraries and not for the driver's.
 *
 * A shim is the stub's file with NVIDIA's SONAME written in place of its
 * own (elf_soname.c): the build links its shims from the same objects with
 * the same version script, so the two differ in that name alone. Each is
 * checked against its stub (the symbols it defines, the versions, the
 * libraries it needs) before it takes its name. A shim is written as
 * `cudastub patch` writes a file: into a private folder made beside it,
 * synced, then renamed over the name, so that no one who can write DIR
 * can redirect the write and no half-written shim is ever seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "elf_read.h"
#include "patch_fs.h"
#include "patch_stubs.h"
#include "private_folder.h"

enum { MAX_ABIS = 16, LIST_SIZE = 1 << 20 };

static void usage(FILE *out)
{
	fputs("Usage: cudastub shim DIR [--abi N]...\n"
	      "\n"
	      "Makes the drop-in shims from this cudastub's stubs: DIR/cu<N>/ holds\n"
	      "each library's stub for the CUDA ABI N under NVIDIA's SONAME\n"
	      "(libcudart.so.13), DIR/cu<N>/driver/ the driver's (libcuda.so.1) and\n"
	      "DIR/cu<N>/nvml/ NVML's. Run a program with LD_LIBRARY_PATH=DIR/cu<N>.\n"
	      "A shim already there is replaced.\n"
	      "\n"
	      "  --abi N   only the stubs of CUDA ABI N (again for more); default: all\n",
	      out);
}

/* NVIDIA's SONAME of library lib for the CUDA abi, or NULL. */
static const char *real_soname(int lib, int abi)
{
	for (const struct cli_soname *s = cli_known_libraries[lib].sonames; s && s->name; s++)
		if (s->major == abi || s->major == 0)
			return s->name;
	return NULL;
}

/* The folder name below dir, made if missing, opened without following
 * a link; a descriptor, or -1 with errno. */
static int sub_folder(int dir, const char *name)
{
	if (!*name)
		return fcntl(dir, F_DUPFD_CLOEXEC, 0);
	if (mkdirat(dir, name, 0755) != 0 && errno != EEXIST)
		return -1;
	return openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Whether the shim at fd is its stub's file but for the SONAME: the same
 * symbols, the same versions past the base one, the same libraries. */
static int same_but_name(int stub, int shim, char *a, char *b)
{
	char na[4096], nb[4096], ra[1024], rb[1024];
	const char *va, *vb;

	if (elf_symbols(stub, 1, a, LIST_SIZE) != 0 || elf_symbols(shim, 1, b, LIST_SIZE) != 0 ||
	    strcmp(a, b))
		return 0;
	if (elf_version_defs(stub, a, LIST_SIZE) != 0 || elf_version_defs(shim, b, LIST_SIZE) != 0)
		return 0;
	/* the first definition is the file's own name */
	va = strchr(a, '\n');
	vb = strchr(b, '\n');
	if (!va != !vb || (va && strcmp(va, vb)))
		return 0;
	return elf_dynamic_strings(stub, na, sizeof na, ra, sizeof ra) == 0 &&
	       elf_dynamic_strings(shim, nb, sizeof nb, rb, sizeof rb) == 0 && !strcmp(na, nb) &&
	       !strcmp(ra, rb);
}

/* The shim of the stub at source, as soname in the folder dir (shown as
 * shown); 0, or -1 with a line said. */
static int make_shim(int dir, const char *shown, const char *source, const char *soname, char *a,
		     char *b)
{
	struct private_folder pf;
	struct stat st;
	const char *why = NULL;
	int stub = stub_open_source(source, &st), out = -1, ok = 0;

	if (stub < 0) {
		cli_line(stderr, "cudastub shim: %s: cannot read it: %s", source, strerror(errno));
		return -1;
	}
	if (private_make(dir, 0, &pf) != 0) {
		cli_line(stderr, "cudastub shim: %s: cannot make a private folder there: %s", shown,
			 strerror(errno));
		close(stub);
		return -1;
	}
	out = openat(pf.fd, soname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0 || fs_copy(stub, out) != 0)
		why = strerror(errno);
	else if (elf_set_soname(out, soname, &why) != 0)
		; /* why says it */
	else if (!same_but_name(stub, out, a, b))
		why = "the copy differs from the stub in more than its SONAME";
	else if (fchmod(out, 0755) != 0 || fs_sync(out) != 0 ||
		 renameat(pf.fd, soname, dir, soname) != 0 || fs_sync(dir) != 0)
		why = strerror(errno);
	else
		ok = 1;
	if (!ok)
		cli_line(stderr, "cudastub shim: %s/%s: %s; nothing written there", shown, soname,
			 why);
	if (out >= 0)
		close(out);
	close(stub);
	private_remove(&pf);
	return ok ? 0 : -1;
}

/* Every shim of the CUDA abi below root (shown as dir); how many failed. */
static int make_abi(int root, const char *dir, int abi, char *a, char *b, int *made)
{
	char folder[16], source[PATH_MAX], shown[PATH_MAX + 64];
	int abi_dir, failed = 0;

	snprintf(folder, sizeof folder, "cu%d", abi);
	if ((abi_dir = sub_folder(root, folder)) < 0) {
		cli_line(stderr, "cudastub shim: %s/%s: %s", dir, folder, strerror(errno));
		return 1;
	}
	for (int lib = 0; lib < CUDASTUB_LIB_COUNT; lib++) {
		const struct cli_known_library *k = &cli_known_libraries[lib];
		const char *soname = k->name ? real_soname(lib, abi) : NULL;
		int at;

		if (!soname || !cli_stub_file(lib, abi, source, sizeof source))
			continue;
		snprintf(shown, sizeof shown, "%s/%s%s%s", dir, folder, *k->shim_folder ? "/" : "",
			 k->shim_folder);
		if ((at = sub_folder(abi_dir, k->shim_folder)) < 0) {
			cli_line(stderr, "cudastub shim: %s: %s", shown, strerror(errno));
			failed++;
			continue;
		}
		if (make_shim(at, shown, source, soname, a, b) == 0) {
			cli_line(stdout, "shim %s/%s: %s", shown, soname, stub_file_name(source));
			(*made)++;
		} else {
			failed++;
		}
		close(at);
	}
	close(abi_dir);
	return failed;
}

/* The ABIs --abi named (each once), else every one at hand; how many, or
 * -1 after a usage error. */
static int wanted_abis(int argc, char **argv, const char **dir, int *abis)
{
	int count = 0, at_hand[MAX_ABIS], n = cli_stub_abis(at_hand, MAX_ABIS);

	for (int i = 1; i < argc; i++) {
		char *end;
		long abi;
		int known = 0;

		if (strcmp(argv[i], "--abi")) {
			if (*dir || argv[i][0] == '-') {
				cli_line(stderr, "cudastub shim: unexpected '%s'", argv[i]);
				return -1;
			}
			*dir = argv[i];
			continue;
		}
		if (++i == argc) {
			cli_line(stderr, "cudastub shim: --abi needs a CUDA major");
			return -1;
		}
		abi = strtol(argv[i], &end, 10);
		for (int j = 0; j < n; j++)
			known |= at_hand[j] == abi;
		if (*end || end == argv[i] || !known) {
			cli_line(
				stderr,
				"cudastub shim: --abi '%s': this cudastub has no stubs of that ABI",
				argv[i]);
			return -1;
		}
		if (count < MAX_ABIS)
			abis[count++] = (int)abi;
	}
	if (!*dir) {
		cli_line(stderr, "cudastub shim: no folder given");
		return -1;
	}
	if (!count)
		memcpy(abis, at_hand, sizeof(int) * (size_t)(count = n));
	return count;
}

int cli_shim(int argc, char **argv)
{
	const char *dir = NULL;
	char real[PATH_MAX], *a = NULL, *b = NULL;
	int abis[MAX_ABIS], count, root, failed = 0, made = 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	if (!cli_stub_folder()) {
		cli_line(stderr,
			 "cudastub shim: this cudastub has no stubs at hand (none in the lib "
			 "folder beside its bin folder)");
		return 1;
	}
	if ((count = wanted_abis(argc, argv, &dir, abis)) < 0) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (fs_real_path_to_be(dir, real) != 0 || (root = fs_open_folder(real, 1)) < 0) {
		cli_line(stderr, "cudastub shim: %s: %s", dir, strerror(errno));
		return 1;
	}
	a = malloc(LIST_SIZE);
	b = malloc(LIST_SIZE);
	for (int i = 0; i < count && a && b; i++)
		failed += make_abi(root, dir, abis[i], a, b, &made);
	if (!a || !b)
		failed++;
	free(a);
	free(b);
	close(root);
	cli_line(stdout, "%d shims made in %s%s", made, dir, failed ? "; some failed" : "");
	return failed ? 1 : 0;
}
