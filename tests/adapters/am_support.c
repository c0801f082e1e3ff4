/* Running the adapter cases, and reading what they printed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters_memory.h"

/* "stub 12 on fake 13: scenario", for failure messages. */
static char current_case[256];

/* The fetched headers a major other than the build's needs, or NULL. */
static const char *fixture_of(int major)
{
	return major == 11 ? "headers-11.8" : major == 12 ? "headers-12.4" : NULL;
}

static void stub_path(int abi, char *buf, size_t size)
{
	if (abi == AM_BUILD_ABI)
		snprintf(buf, size, "%s", AM_BUILD_STUB);
	else
		snprintf(buf, size, "%s/tests/abi-%d/libcudart_stub.so", ts_build_dir(), abi);
}

static void fake_path(int major, char *buf, size_t size)
{
	snprintf(buf, size, "%s/tests/cudart/fakes/cudart-%d/libcudart.so.%s", ts_build_dir(),
		 major,
		 major == 11   ? "11.0"
		 : major == 12 ? "12"
			       : "13");
}

static int built(const char *path)
{
	char why[4200];

	if (access(path, R_OK) == 0)
		return 1;
	snprintf(why, sizeof why,
		 "%s was not built: its headers were fetched after configuring; "
		 "re-run cmake",
		 path);
	ts_unavailable(why);
	return 0;
}

int am_run(int stub_abi, int fake_major, const char *scenario, struct ts_child *child)
{
	char stub[4096], fake[4096], env_stub[4200], env_fake[4200], msg[512];
	const char *env[] = {env_stub, env_fake, "CUDASTUB_DEBUG=1", NULL};
	const int majors[2] = {stub_abi, fake_major};

	snprintf(current_case, sizeof current_case, "stub %d on fake %d: %s", stub_abi, fake_major,
		 scenario);
	for (int i = 0; i < 2; i++)
		if (fixture_of(majors[i]) && !ts_fixture(fixture_of(majors[i])))
			return 0;
	stub_path(stub_abi, stub, sizeof stub);
	fake_path(fake_major, fake, sizeof fake);
	if (!built(stub) || !built(fake))
		return 0;
	snprintf(env_stub, sizeof env_stub, "AM_STUB=%s", stub);
	snprintf(env_fake, sizeof env_fake, "CUDASTUB_CUDART_PATH=%s", fake);
	if (ts_run_child(scenario, env, child) != 0) {
		snprintf(msg, sizeof msg, "[%s] could not start the child", current_case);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, __func__, CU_FALSE);
		return 0;
	}
	if (child->exit_code == 0)
		return 1;
	snprintf(msg, sizeof msg, "[%s] the child exited %d", current_case, child->exit_code);
	CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, __func__, CU_FALSE);
	fprintf(stderr, "%s\nstdout:\n%s\nstderr:\n%s\n", msg, child->out, child->err);
	return 0;
}

CU_pSuite am_suite(const char *name)
{
	if (AM_BUILD_ABI != 13) {
		printf("SKIP: %s: the cases are written for the 13.0-ABI build\n", name);
		return NULL;
	}
	return CU_add_suite(name, NULL, NULL);
}

void am_expect_at(const char *file, int line, const struct ts_child *c, const char *key,
		  long long want)
{
	const char *got = ts_value(c, key);
	char msg[1024];

	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %lld", current_case, key,
		 got ? got : "(missing)", want);
	CU_assertImplementation(got && strtoll(got, NULL, 0) == want, line, msg, file, "",
				CU_FALSE);
}

void am_called_at(const char *file, int line, const struct ts_child *c, const char *step,
		  const char *fn, int want)
{
	char key[128], needle[160], msg[1024];
	const char *calls;

	snprintf(key, sizeof key, "%s.calls", step);
	snprintf(needle, sizeof needle, ",%s,", fn ? fn : "");
	calls = ts_value(c, key);
	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %s%s", current_case, key,
		 calls ? calls : "(missing)", want ? "" : "no ", fn ? fn : "call");
	if (!fn) /* nothing: the list is empty */
		CU_assertImplementation(calls && !strcmp(calls, ","), line, msg, file, "",
					CU_FALSE);
	else
		CU_assertImplementation(calls && !strstr(calls, needle) == !want, line, msg, file,
					"", CU_FALSE);
}

void am_same_at(const char *file, int line, const struct ts_child *c, const char *key_a,
		const char *key_b)
{
	char a[256], msg[1024];
	const char *got = ts_value(c, key_a);

	snprintf(a, sizeof a, "%s", got ? got : "(missing)");
	got = ts_value(c, key_b);
	snprintf(msg, sizeof msg, "[%s] %s=%s but %s=%s", current_case, key_a, a, key_b,
		 got ? got : "(missing)");
	CU_assertImplementation(got && strcmp(a, "(missing)") && !strcmp(a, got), line, msg, file,
				"", CU_FALSE);
}

/* ---- child ---- */

static void *stub_handle(void)
{
	static void *stub;
	const char *path = getenv("AM_STUB");

	if (!stub && path)
		stub = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!stub) {
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(AM_STUB unset)",
			dlerror());
		exit(2);
	}
	return stub;
}

void *am_symbol(const char *name)
{
	void *sym = dlsym(stub_handle(), name);

	if (!sym) {
		fprintf(stderr, "the stub does not export %s\n", name);
		exit(3);
	}
	return sym;
}

int am_exports(const char *name)
{
	return dlsym(stub_handle(), name) != NULL;
}

/* The fake the stub loaded, once it has. */
static void *fake_handle(void)
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");

	return path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
}

void am_report(const char *step, int rc)
{
	static int reported; /* calls already printed */
	void *fake = fake_handle();
	const char **calls = fake ? dlsym(fake, "fake_cudart_calls") : NULL;
	int *count = fake ? dlsym(fake, "fake_cudart_call_count") : NULL;
	long long *args = fake ? dlsym(fake, "fake_memory_args") : NULL;

	printf("%s.rc=%d\n", step, rc);
	printf("%s.calls=,", step);
	for (; count && calls && reported < *count && reported < 256; reported++)
		printf("%s,", calls[reported]);
	printf("\n");
	for (int i = 0; args && i < 8; i++)
		printf("%s.arg%d=%lld\n", step, i, args[i]);
	if (fake)
		dlclose(fake); /* the NOLOAD reference only */
	fflush(stdout);
}
