/*
 * cudastub patch FILE.whl: a wheel patched as the wheel it is.
 *
 * The wheel is unpacked into a temporary folder beside it (python3 -m wheel
 * unpack: Python's own packaging code, which a wheel pipeline has;
 * $CUDASTUB_PYTHON, or the first python3 that has it), patched
 * there as a tree with these differences, then packed again (python3 -m
 * wheel pack, which writes RECORD anew from the files) and renamed over the
 * original, so a failure at any point leaves the original as it was:
 *
 *   - the stubs go into one folder per wheel: the wheel's own *.libs folder
 *     when it has one (auditwheel's), else <name>.libs beside its
 *     .dist-info, never beside each file (a folder of executables or
 *     plugins gets no copy);
 *   - stubs are named by their content (--unique-names, patch_names.c), so
 *     that this wheel and any other load their own in one process;
 *   - a library auditwheel grafted under a hashed name (libcudart-
 *     96c42e41.so.13) that a stub stands in for, and that no file of the
 *     wheel needs any more, is removed: the wheel no longer carries NVIDIA's
 *     runtime.
 *
 * --dry-run and --check plan on the unpacked copy and leave the wheel alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "patch.h"

int patch_is_wheel(const char *path)
{
	size_t n = strlen(path);
	struct stat st;

	return n > 4 && !strcmp(path + n - 4, ".whl") && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

/* Runs argv, its output to stderr only on failure; 0 when it exited 0. */
static int run_quietly(char *const *argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			       WEXITSTATUS(status) == 0
		       ? 0
		       : -1;
}

/* The Python that unpacks and packs: $CUDASTUB_PYTHON, else the first of
 * python3 on PATH and the system's /usr/bin/python3 that has the wheel
 * package (a pyenv or venv python3 first on PATH often has not). */
static const char *wheel_python(void)
{
	static const char *const tried[] = {"python3", "/usr/bin/python3"};
	const char *chosen = getenv("CUDASTUB_PYTHON");

	if (chosen && *chosen)
		return chosen;
	for (size_t i = 0; i < sizeof tried / sizeof *tried; i++) {
		char *argv[] = {(char *)tried[i], "-c", "import wheel.cli", NULL};

		if (run_quietly(argv) == 0)
			return tried[i];
	}
	return NULL;
}

/* The one entry of dir whose name ends with suffix, in out; 0 or -1. */
static int only_entry(const char *dir, const char *suffix, char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	size_t len = strlen(suffix);

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > len && !strcmp(e->d_name + n - len, suffix) && e->d_name[0] != '.' &&
		    snprintf(out, size, "%s/%s", dir, e->d_name) < (int)size)
			found++;
	}
	if (d)
		closedir(d);
	return found == 1 ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

/* ---- grafted libraries nothing needs any more ---- */

static char still_needed[65536]; /* every DT_NEEDED of the tree, one a line */

static int collect_needed(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char needed[16384];
	size_t used = strlen(still_needed);

	(void)ftw;
	if (type == FTW_F && S_ISREG(st->st_mode) && elf_kind(path) == ELF_KIND_DYNAMIC &&
	    patch_read_needed(path, needed, sizeof needed) == 0 &&
	    used + strlen(needed) + 2 < sizeof still_needed)
		snprintf(still_needed + used, sizeof still_needed - used, "%s\n", needed);
	return 0;
}

/* Whether name is a library some stub of this command stands in for,
 * under auditwheel's hashed name. */
static int grafted_covered(const char *name)
{
	char unhashed[256];
	const char *plain = nvidia_unhashed(name, unhashed, sizeof unhashed);

	if (plain == name)
		return 0; /* no hash: not grafted */
	for (int k = 0; k < CUDASTUB_LIB_COUNT; k++)
		for (const struct cli_soname *so = cli_known_libraries[k].sonames;
		     cli_known_libraries[k].name && so->name; so++)
			if (!strcmp(so->name, plain))
				return 1;
	return 0;
}

/* Removes from libs each grafted library a stub covers that no file of
 * root needs now; how many. */
static int drop_grafted(const char *root, const char *libs, const struct patch_options *o)
{
	DIR *d;
	struct dirent *e;
	int dropped = 0;

	still_needed[0] = '\0';
	nftw(root, collect_needed, 32, FTW_PHYS);
	if (!(d = opendir(libs)))
		return 0;
	while ((e = readdir(d))) {
		char line[300], path[PATH_MAX + 300];

		snprintf(line, sizeof line, "%s\n", e->d_name);
		if (!grafted_covered(e->d_name) || strstr(still_needed, line))
			continue;
		if (snprintf(path, sizeof path, "%s/%s", libs, e->d_name) >= (int)sizeof path)
			continue;
		if (o->check || o->dry_run || unlink(path) == 0) {
			cli_line(stdout, "%s %s: a grafted NVIDIA library nothing needs now",
				 o->check || o->dry_run ? "would remove" : "removed", e->d_name);
			dropped++;
		}
	}
	closedir(d);
	return dropped;
}

/* ---- an unpacked wheel ---- */

int patch_unpacked_wheel(struct patch_options *o, const char *root, int *dropped)
{
	char info[PATH_MAX + 256], libs[PATH_MAX + 256], *dash;
	*dropped = 0;
	if (only_entry(root, ".dist-info", info, sizeof info) != 0)
		return 1; /* not a wheel: walked as any folder */
	/* the wheel's own *.libs folder, or <name>.libs beside the .dist-info */
	if (only_entry(root, ".libs", libs, sizeof libs) != 0) {
		snprintf(libs, sizeof libs, "%s", info);
		libs[strlen(libs) - strlen(".dist-info")] = '\0';
		dash = strrchr(libs, '-'); /* <name>-<version>.dist-info */
		if (!dash || strchr(dash, '/'))
			return 1;
		snprintf(dash, sizeof libs - (size_t)(dash - libs), ".libs");
	}
	cli_line(stdout, "%s: an unpacked wheel: its stubs go into %s, named by their content",
		 root, libs);
	if (patch_tree_into(o, root, libs, 1) != 0)
		return 0;
	*dropped = drop_grafted(root, libs, o);
	return 0;
}

/* ---- the wheel ---- */

int patch_wheel(struct patch_options *o, const char *wheel)
{
	char work[PATH_MAX], unpacked[PATH_MAX + 16], root[2 * PATH_MAX], info[3 * PATH_MAX];
	char out[PATH_MAX + 16], packed[2 * PATH_MAX], *slash;
	const char *python = wheel_python();
	char *unpack[] = {(char *)python, "-m",	    "wheel",	   "unpack",
			  "-d",		  unpacked, (char *)wheel, NULL};
	char *pack[] = {(char *)python, "-m", "wheel", "pack", "-d", out, root, NULL};
	int changes = o->changes, errors = o->errors, dropped = 0, rc = -1;

	if (!python) {
		cli_line(stderr,
			 "cudastub patch: %s: patching a wheel needs Python's wheel package "
			 "(python3 -m wheel; Debian: apt-get install python3-wheel), or "
			 "CUDASTUB_PYTHON naming a Python that has it",
			 wheel);
		o->errors++;
		return -1;
	}
	snprintf(work, sizeof work, "%s", wheel);
	slash = strrchr(work, '/');
	snprintf(slash ? slash + 1 : work, sizeof work - (size_t)(slash ? slash + 1 - work : 0),
		 ".cudastub-wheel-XXXXXX");
	if (!mkdtemp(work)) {
		cli_line(stderr, "cudastub patch: %s: no temporary folder beside it", wheel);
		o->errors++;
		return -1;
	}
	snprintf(unpacked, sizeof unpacked, "%s/unpacked", work);
	snprintf(out, sizeof out, "%s/packed", work);
	if (run_quietly(unpack) != 0 || only_entry(unpacked, "", root, sizeof root) != 0 ||
	    only_entry(root, ".dist-info", info, sizeof info) != 0) {
		cli_line(stderr, "cudastub patch: %s: could not unpack it (%s -m wheel unpack)",
			 wheel, python);
		o->errors++;
		goto done;
	}
	if (patch_unpacked_wheel(o, root, &dropped) != 0) {
		cli_line(stderr, "cudastub patch: %s: no .dist-info folder in it", wheel);
		o->errors++;
		goto done;
	}
	if (o->errors != errors || o->check || o->dry_run || (o->changes == changes && !dropped)) {
		rc = o->errors == errors ? 0 : -1;
		goto done;
	}
	mkdir(out, 0755);
	if (run_quietly(pack) != 0 || only_entry(out, ".whl", packed, sizeof packed) != 0 ||
	    rename(packed, wheel) != 0) {
		cli_line(stderr, "cudastub patch: %s: could not pack it again; left as it was",
			 wheel);
		o->errors++;
		goto done;
	}
	cli_line(stdout, "%s: packed again, its RECORD written anew", wheel);
	rc = 0;
done:
	nftw(work, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
	return rc;
}
