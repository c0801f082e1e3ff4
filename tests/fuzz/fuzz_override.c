/*
 * Override paths and pins through the real search (stubs/loader): each
 * input sets CUDASTUB_FUZZ_PATH, and CUDASTUB_FUZZ_MAJOR after a newline,
 * then runs the first search of a fresh library. Whatever the text, the
 * search fails cleanly (this library exists nowhere, and its probe accepts
 * nothing), with an error that names no raw control character.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

/* Accepts no candidate, and never calls into one. */
static int refuse_every_version(void *handle, const char *path, int *major, int *minor)
{
	(void)handle;
	(void)path;
	*major = *minor = 0;
	return -1;
}

static int has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; s && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct cudastub_soname sonames[] = {
		{2, "libcudastub-fuzz.so.2"}, {1, "libcudastub-fuzz.so.1"}, {0, NULL}};
	static const char *const wheels[] = {"nvidia/fuzz/lib", NULL};
	struct cudastub_library *lib = calloc(1, sizeof *lib);
	char *text = malloc(size + 1), *pin;
	const cudastub_library_info *info;
	cudastub_state state;

	if (!lib || !text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	pin = strchr(text, '\n');
	if (pin)
		*pin++ = '\0';
	setenv("CUDASTUB_FUZZ_PATH", text, 1);
	if (pin)
		setenv("CUDASTUB_FUZZ_MAJOR", pin, 1);
	else
		unsetenv("CUDASTUB_FUZZ_MAJOR");
	lib->name = "fuzz";
	lib->env_path = "CUDASTUB_FUZZ_PATH";
	lib->env_major = "CUDASTUB_FUZZ_MAJOR";
	lib->family = "libcudastub-fuzz";
	lib->sonames = sonames;
	lib->wheel_dirs = wheels;
	lib->probe_version = refuse_every_version;
	atomic_flag_clear(&lib->first_claimed);
	lib->first_search = calloc(1, sizeof *lib->first_search);
	if (!lib->first_search)
		abort();
	state = cudastub_loader_load(lib);
	info = cudastub_loader_info(lib);
	if (state == CUDASTUB_STATE_LOADED || info->state != state)
		abort();
	/* an override that is set is the only step, and its failure says so */
	if (*text && state != CUDASTUB_STATE_OVERRIDE_FAILED &&
	    (state != CUDASTUB_STATE_NOT_FOUND || !pin || !*pin))
		abort();
	if (!info->error || has_control(info->error) || has_control(cudastub_loader_summary(lib)))
		abort();
	free(text);
	free(lib->first_search);
	free(lib);
	return 0;
}
