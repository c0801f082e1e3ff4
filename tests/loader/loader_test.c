#define _GNU_SOURCE
#include "loader_test.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ld_stub(void)
{
	return LD_STUB_PATH;
}

const char *ld_shim(void)
{
#ifdef LD_SHIM_PATH
	return LD_SHIM_PATH;
#else
	return NULL;
#endif
}

const char *ld_shim_dir(void)
{
	static char dir[4096];
	char *slash;

	if (!ld_shim())
		return NULL;
	snprintf(dir, sizeof dir, "%s", ld_shim());
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

const char *ld_fake_file_name(const char *variant)
{
	if (!strncmp(variant, "nvrtc-11", 8))
		return "libnvrtc.so.11.2";
	if (!strncmp(variant, "nvrtc-12", 8))
		return "libnvrtc.so.12";
	return "libnvrtc.so.13";
}

const char *ld_fake_dir(const char *variant)
{
	return ld_fmt("%s/tests/nvrtc/fakes/%s", ts_build_dir(), variant);
}

const char *ld_fake(const char *variant)
{
	return ld_fmt("%s/tests/nvrtc/fakes/%s/%s", ts_build_dir(), variant,
		      ld_fake_file_name(variant));
}

const char *ld_fmt(const char *fmt, ...)
{
	static char ring[32][4096];
	static unsigned next;
	char *out = ring[next++ % 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, sizeof ring[0], fmt, ap);
	va_end(ap);
	return out;
}

const char *ld_tmpdir(char *buf, size_t size)
{
	const char *base = getenv("TMPDIR");

	snprintf(buf, size, "%s/cudastub-unit-XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(buf);
}

int ld_mkdirs(const char *path)
{
	char buf[4096];
	char *p;

	snprintf(buf, sizeof buf, "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	return mkdir(buf, 0755) == 0 ? 0 : -1;
}

int ld_link(const char *from, const char *to)
{
	return symlink(from, to);
}

long ld_long(const struct ts_child *child, const char *key)
{
	const char *v = ts_value(child, key);

	return v ? strtol(v, NULL, 10) : -999;
}

int ld_is(const struct ts_child *child, const char *key, const char *want)
{
	const char *v = ts_value(child, key);

	return v && !strcmp(v, want);
}

int ld_has(const struct ts_child *child, const char *key, const char *part)
{
	const char *v = ts_value(child, key);

	return v && strstr(v, part) != NULL;
}

int ld_attempt(const struct ts_child *child, const char *path_part, const char *outcome_part)
{
	long i, n = ld_long(child, "attempts");

	for (i = 0; i < n; i++) {
		char key[64];
		const char *v;

		snprintf(key, sizeof key, "attempt.%ld", i);
		v = ts_value(child, key);
		const char *bar = v ? strchr(v, '|') : NULL;

		if (!bar)
			continue;
		if (strstr(v, path_part) && strstr(v, path_part) < bar &&
		    strstr(bar + 1, outcome_part))
			return 1;
	}
	return 0;
}

int ld_run_probe(const char *const *env, struct ts_child *child)
{
	int rc = ts_run_child("probe", env, child);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(child->exit_code, 0);
	if (getenv("CUDASTUB_TEST_VERBOSE"))
		fprintf(stderr, "--- probe ---\n%s%s\n", child->out, child->err);
	return rc == 0 && child->exit_code == 0 ? 0 : -1;
}

void *ld_open_stub(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		printf("stub_dlopen_error=%s\n", dlerror());
	return h;
}

typedef int (*version_fn)(int *, int *);
typedef int (*size_fn)(void *, size_t *);
typedef int (*ptx_fn)(void *, char *);
typedef int (*pch_fn)(size_t *);
typedef const char *(*errstr_fn)(int);
typedef const cudastub_library_info *(*info_fn)(void);

/* With the loaded library a fake, calls what tells the fakes apart. */
static void probe_fake(void *stub, const cudastub_library_info *info)
{
	void *lib = info->path ? dlopen(info->path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	int *loads = lib ? dlsym(lib, "fake_nvrtc_loads") : NULL;
	ptx_fn ptx = (ptx_fn)dlsym(stub, "nvrtcGetPTX");
	size_fn ptx_size = (size_fn)dlsym(stub, "nvrtcGetPTXSize");
	pch_fn pch = (pch_fn)dlsym(stub, "nvrtcGetPCHHeapSize");
	char tag[256] = "untouched";
	size_t size = 0, heap = LD_PCH_SENTINEL;

	printf("fake=%d\n", loads != NULL);
	if (!loads)
		return;
	printf("fake_loads=%d\n", *loads);
	printf("ptx_size_rc=%d\n", ptx_size(NULL, &size));
	printf("ptx_size=%zu\n", size);
	printf("ptx_rc=%d\n", ptx(NULL, tag));
	printf("ptx=%s\n", tag);
	if (pch) { /* the 11.x ABI has no nvrtcGetPCHHeapSize */
		printf("pch_rc=%d\n", pch(&heap));
		printf("pch=%zu\n", heap);
	}
}

static void print_error_strings(void *stub)
{
	static const int codes[] = {5, 1034, 1500, 1801};
	errstr_fn errstr = (errstr_fn)dlsym(stub, "nvrtcGetErrorString");
	size_t i;

	for (i = 0; errstr && i < sizeof codes / sizeof *codes; i++) {
		const char *s = errstr(codes[i]);

		printf("errstr.%d=%s\n", codes[i], s ? s : "(null)");
	}
}

static void print_info(const cudastub_library_info *info)
{
	unsigned i;

	printf("state=%d\nsource=%d\n", (int)info->state, (int)info->source);
	printf("path=%s\nerror=%s\n", info->path ? info->path : "", info->error ? info->error : "");
	printf("info_major=%d\ninfo_minor=%d\nabi_major=%d\n", info->major, info->minor,
	       info->abi_major);
	printf("search_runs=%lu\ndlopen_calls=%lu\n", info->search_runs, info->dlopen_calls);
	printf("driver_version=%d\nchoice=%s\n", info->driver_version,
	       info->choice ? info->choice : "");
	printf("attempts=%u\n", info->attempt_count);
	for (i = 0; i < info->attempt_count; i++)
		printf("attempt.%u=%s|%s\n", i, info->attempts[i].path, info->attempts[i].outcome);
}

/* Whether a file named libcuda.so* is mapped in this process (a driver,
 * real or fake, that something loaded). */
static int driver_mapped(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096];
	int mapped = 0;

	while (maps && fgets(line, sizeof line, maps))
		if (strstr(line, "/libcuda.so"))
			mapped = 1;
	if (maps)
		fclose(maps);
	return mapped;
}

int ld_probe(void)
{
	const char *stub_path = getenv("TEST_STUB");
	const char *preload = getenv("TEST_PRELOAD");
	const cudastub_library_info *info;
	version_fn version;
	info_fn get_info;
	int major = -1, minor = -1;
	void *stub;

	if (preload && *preload) {
		void *h = dlopen(preload, RTLD_NOW | RTLD_LOCAL);

		printf("preload=%s\n", h ? "ok" : dlerror());
	}
	stub = ld_open_stub(stub_path ? stub_path : ld_stub());
	if (!stub)
		return 3;
	version = (version_fn)dlsym(stub, "nvrtcVersion");
	get_info = (info_fn)dlsym(stub, "cudastub_nvrtc_info");
	if (!version || !get_info)
		return 4;
	printf("version_rc=%d\n", version(&major, &minor));
	printf("major=%d\nminor=%d\n", major, minor);
	info = get_info();
	print_info(info);
	printf("driver_mapped=%d\n", driver_mapped());
	if (info->state == CUDASTUB_STATE_LOADED)
		probe_fake(stub, info);
	print_error_strings(stub);
	fflush(stdout);
	return 0;
}
