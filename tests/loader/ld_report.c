/*
 * A stub's first call reported by a child, and read back by the parent:
 * the suites that feed the search hostile files and names (tests/loader,
 * test_hostile_*, test_damaged_content) print every attempt with its
 * bytes escaped, to see that none reaches the output raw.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "loader_test.h"

/* Prints key=text with bytes below 0x20, 0x7f and up as \xNN: the
 * key=value protocol is one line per key. */
static void print_escaped(const char *key, const char *text)
{
	printf("%s=", key);
	for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	putchar('\n');
}

/* Whether text holds a control character as it is. */
static int raw_controls(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

/* lib's first call through stub: its code, and the version in *value. */
static int first_call(void *stub, const char *lib, int *value)
{
	int minor = -1;

	if (!strcmp(lib, "nvrtc")) {
		int (*version)(int *, int *);

		*(void **)&version = dlsym(stub, "nvrtcVersion");
		return version(value, &minor);
	} else {
		int (*probe)(int *);

		*(void **)&probe = dlsym(stub, !strcmp(lib, "cudart") ? "cudaRuntimeGetVersion"
								      : "cuDriverGetVersion");
		return probe(value);
	}
}

int ld_report_first_call(const char *path, const char *lib)
{
	const cudastub_library_info *(*info_of)(void);
	const cudastub_library_info *info;
	void *stub = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	char name[64];
	int rc, value = -1;

	if (!stub || !lib)
		return 3;
	rc = first_call(stub, lib, &value);
	snprintf(name, sizeof name, "cudastub_%s_info", lib);
	*(void **)&info_of = dlsym(stub, name);
	info = info_of();
	printf("rc=%d\nvalue=%d\nstate=%d\ndlopen_calls=%lu\nattempts=%u\n", rc, value,
	       (int)info->state, info->dlopen_calls, info->attempt_count);
	print_escaped("error", info->error);
	printf("error_raw_controls=%d\n", raw_controls(info->error));
	print_escaped("path", info->path);
	for (unsigned i = 0; i < info->attempt_count; i++) {
		char key[32];

		snprintf(key, sizeof key, "attempt.%u", i);
		printf("%s.raw_controls=%d\n", key, raw_controls(info->attempts[i].outcome));
		print_escaped(key, info->attempts[i].path);
		snprintf(key, sizeof key, "outcome.%u", i);
		print_escaped(key, info->attempts[i].outcome);
	}
	printf("finished=1\n");
	fflush(stdout);
	return 0;
}

/* Whether path is where (ends: at its end, else anywhere in it). */
static int path_is(const char *p, const char *path, int ends)
{
	if (!ends)
		return strstr(p, path) != NULL;
	return strlen(p) >= strlen(path) && !strcmp(p + strlen(p) - strlen(path), path);
}

static int attempted(const struct ts_child *c, const char *path, const char *outcome, int ends)
{
	for (long i = 0; i < ld_long(c, "attempts"); i++) {
		char key[32];
		const char *p, *o;

		snprintf(key, sizeof key, "attempt.%ld", i);
		p = ts_value(c, key);
		if (!p || !path_is(p, path, ends))
			continue;
		snprintf(key, sizeof key, "outcome.%ld", i);
		o = ts_value(c, key);
		if (o && strstr(o, outcome))
			return 1;
	}
	return 0;
}

int ld_attempted(const struct ts_child *c, const char *path, const char *outcome)
{
	return attempted(c, path, outcome, 1);
}

int ld_attempted_within(const struct ts_child *c, const char *path, const char *outcome)
{
	return attempted(c, path, outcome, 0);
}
