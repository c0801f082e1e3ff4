/*
 * The child side of the deferred-registration suite (registry_main.c): it
 * opens the stub named by RG_STUB, makes the calls nvcc's code makes with
 * data of its own, and prints what the fake runtime (CUDASTUB_CUDART_PATH)
 * saw: events=<e1> | <e2> | ... (fake_cudart_register.c), and the values
 * named in each scenario.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

/* What nvcc's code hands the runtime: stand-ins with addresses of their own. */
static const int wrapper_a = 1, wrapper_b = 2, wrapper_c = 3, wrapper_d = 4;
static void host_a1(void)
{
}
static void host_a2(void)
{
}
static void host_b1(void)
{
}
static void host_c1(void)
{
}
static void host_d1(void)
{
}
static int var_a;
static int *managed_a;

static struct {
	void **(*fat_binary)(void *);
	void (*fat_binary_end)(void **);
	void (*unregister)(void **);
	void (*function)(void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *,
			 dim3 *, int *);
	void (*var)(void **, char *, char *, const char *, int, size_t, int, int);
	void (*managed_var)(void **, void **, char *, const char *, int, size_t, int, int);
	char (*init_module)(void **);
	unsigned (*push)(dim3, dim3, size_t, struct CUstream_st *);
	cudaError_t (*launch)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
	cudaError_t (*device_count)(int *);
	cudaError_t (*last_error)(void);
} stub;

static int open_stub(void)
{
	const char *path = getenv("RG_STUB");
	void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!h) {
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(unset)",
			dlerror());
		return 0;
	}
	*(void **)&stub.fat_binary = dlsym(h, "__cudaRegisterFatBinary");
	*(void **)&stub.fat_binary_end = dlsym(h, "__cudaRegisterFatBinaryEnd");
	*(void **)&stub.unregister = dlsym(h, "__cudaUnregisterFatBinary");
	*(void **)&stub.function = dlsym(h, "__cudaRegisterFunction");
	*(void **)&stub.var = dlsym(h, "__cudaRegisterVar");
	*(void **)&stub.managed_var = dlsym(h, "__cudaRegisterManagedVar");
	*(void **)&stub.init_module = dlsym(h, "__cudaInitModule");
	*(void **)&stub.push = dlsym(h, "__cudaPushCallConfiguration");
	*(void **)&stub.launch = dlsym(h, "cudaLaunchKernel");
	*(void **)&stub.device_count = dlsym(h, "cudaGetDeviceCount");
	*(void **)&stub.last_error = dlsym(h, "cudaGetLastError");
	return stub.fat_binary && stub.fat_binary_end && stub.unregister && stub.function &&
	       stub.var && stub.managed_var && stub.init_module && stub.push && stub.launch &&
	       stub.device_count && stub.last_error;
}

static void function(void **h, void (*host)(void), const char *name)
{
	stub.function(h, (const char *)host, (char *)name, name, -1, NULL, NULL, NULL, NULL, NULL);
}

/* Whether the fake runtime is mapped in this process. */
static int fake_loaded(void)
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;

	if (h)
		dlclose(h);
	return h != NULL;
}

static void print_events(void)
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	void *fake = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	char(*events)[RG_EVENT_LEN] = fake ? dlsym(fake, "fake_cudart_events") : NULL;
	int *count = fake ? dlsym(fake, "fake_cudart_event_count") : NULL;
	static char line[65536];

	line[0] = '\0';
	for (int i = 0; events && count && i < *count; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " | " : "",
			 events[i]);
	printf("events=%s\n", line);
}

/* Module A: a kernel, a variable; module B interleaved with it; module C
 * registered and unregistered before anything needs the runtime. */
static void register_abc(void ***a, void ***b)
{
	void **c;

	*a = stub.fat_binary((void *)&wrapper_a);
	function(*a, host_a1, "kA1");
	stub.var(*a, (char *)&var_a, (char *)"vA", "vA", 0, sizeof var_a, 0, 0);
	*b = stub.fat_binary((void *)&wrapper_b);
	function(*b, host_b1, "kB1");
	stub.managed_var(*a, (void **)&managed_a, (char *)"mA", "mA", 0, 2 * sizeof(int), 0, 0);
	stub.fat_binary_end(*a);
	stub.fat_binary_end(*b);
	c = stub.fat_binary((void *)&wrapper_c);
	function(c, host_c1, "kC1");
	stub.fat_binary_end(c);
	stub.unregister(c);
}

int rg_scenario_replay(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b, **d;
	int count = -1;

	if (!open_stub())
		return 3;
	register_abc(&a, &b);
	printf("loaded_before_first_call=%d\n", fake_loaded());
	printf("stub_handles=%d\n", ((size_t)a & 1) && ((size_t)b & 1));
	printf("count_rc=%d\n", (int)stub.device_count(&count));
	printf("loaded_after_first_call=%d\n", fake_loaded());
	/* after the load: forwarded at once, with the runtime's handles */
	d = stub.fat_binary((void *)&wrapper_d);
	printf("runtime_handle=%d\n", d && !((size_t)d & 1));
	function(d, host_d1, "kD1");
	stub.fat_binary_end(d);
	function(a, host_a2, "kA2"); /* a stub handle, mapped */
	printf("init=%d\n", stub.init_module(a));
	printf("managed_value=%d\n", managed_a ? managed_a[1] : -1);
	stub.push(one, one, 0, NULL);
	printf("launch_b_rc=%d\n", (int)stub.launch((const void *)host_b1, one, one, NULL, 0, 0));
	printf("launch_c_rc=%d\n", (int)stub.launch((const void *)host_c1, one, one, NULL, 0, 0));
	stub.unregister(a);
	stub.unregister(b);
	stub.unregister(d);
	print_events();
	free(managed_a);
	return 0;
}

/* The first call that needs the runtime is __cudaInitModule: a host access
 * to a __managed__ variable. */
int rg_scenario_init_first(void)
{
	void **a, **b;

	if (!open_stub())
		return 3;
	register_abc(&a, &b);
	printf("init=%d\n", stub.init_module(a));
	printf("managed_value=%d\n", managed_a ? managed_a[0] : -1);
	print_events();
	free(managed_a);
	return 0;
}

/* The first call is a launch: __cudaPushCallConfiguration. */
int rg_scenario_launch_first(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b;

	if (!open_stub())
		return 3;
	register_abc(&a, &b);
	stub.push(one, one, 0, NULL);
	printf("launch_a_rc=%d\n", (int)stub.launch((const void *)host_a1, one, one, NULL, 0, 0));
	print_events();
	return 0;
}

/* No runtime: every call returns its documented value, nothing crashes,
 * and unregistering frees what was recorded (valgrind's leak check). */
int rg_scenario_no_runtime(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b;
	int count = -1;

	if (!open_stub())
		return 3;
	register_abc(&a, &b);
	printf("count_rc=%d\n", (int)stub.device_count(&count));
	printf("init=%d\n", stub.init_module(a));
	printf("push=%u\n", stub.push(one, one, 0, NULL));
	printf("launch_rc=%d\n", (int)stub.launch((const void *)host_a1, one, one, NULL, 0, 0));
	printf("last_rc=%d\n", (int)stub.last_error());
	/* a module registered after the failed search is still recorded */
	function(stub.fat_binary((void *)&wrapper_d), host_d1, "kD1");
	stub.unregister(a);
	stub.unregister(b);
	printf("managed=%d\n", managed_a != NULL);
	return 0;
}
