#define _GNU_SOURCE
#include "e2e_patch.h"

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ts_files.h"

const char *e2e_patch_cli(void)
{
	const char *other = getenv("E2E_PATCH_CLI");

	return other && *other ? other : E2E_CLI;
}

int e2e_sh(const char *fmt, ...)
{
	char *cmd = NULL;
	struct ts_child *c = malloc(sizeof *c);
	va_list ap;
	int status = -1, n;

	va_start(ap, fmt);
	n = vasprintf(&cmd, fmt, ap);
	va_end(ap);
	if (n >= 0 && c) {
		char *argv[] = {"/bin/sh", "-c", cmd, NULL};

		if (ts_run_program(argv, NULL, NULL, c) == 0)
			status = c->exit_code;
		if (status != 0)
			fprintf(stderr, "%s: exit %d\n%s%s\n", cmd, status, c->out, c->err);
	}
	free(cmd);
	free(c);
	return status;
}

int e2e_patch(struct ts_child *out, const char *cwd, ...)
{
	char *argv[16] = {"/bin/sh",
			  "-c",
			  "cd \"$0\" && exec \"$@\"",
			  (char *)(cwd ? cwd : "."),
			  (char *)e2e_patch_cli(),
			  "patch"};
	va_list ap;
	int n = 6;

	va_start(ap, cwd);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	if (ts_run_program(argv, NULL, NULL, out) != 0)
		return -1;
	return out->exit_code;
}

int e2e_root(void)
{
	if (geteuid() == 0)
		return 1;
	ts_unavailable("root: the case patches another user's tree as root");
	return 0;
}

const char *e2e_workdir(const char *tag, char *buf, size_t size)
{
	char made[PATH_MAX];

	if (!ts_tmpdir(tag, made, sizeof made) || chmod(made, 0755) != 0 || size < PATH_MAX ||
	    !realpath(made, buf)) {
		CU_FAIL("no temporary folder");
		return NULL;
	}
	return buf;
}

int e2e_cuda_program(const char *path)
{
	return e2e_sh("cp /bin/true '%s' && patchelf --add-needed " E2E_CUDART_NEEDED " '%s'", path,
		      path);
}

int e2e_same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	char x[65536], y[65536];
	size_t na = 1, nb;
	int same = fa && fb;

	while (same && na) {
		na = fread(x, 1, sizeof x, fa);
		nb = fread(y, 1, sizeof y, fb);
		same = na == nb && !memcmp(x, y, na);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

long e2e_env_number(const char *name, long fallback)
{
	const char *v = getenv(name);
	char *end;
	long n = v ? strtol(v, &end, 10) : 0;

	return v && *v && !*end && n > 0 ? n : fallback;
}
