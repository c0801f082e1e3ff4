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
static const int wrapper_a = 1, wrapper_b = 2, wrapper_c = 3, wrapper_d = 4, wrapper_z = 5;
static int var_z;
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
static void host_a3(void)
{
}
static uint3 tid_a3 = {3, 0, 0}, bid_a3 = {4, 0, 0};
static dim3 block_a3 = {5, 1, 1}, grid_a3 = {6, 1, 1};
static int warp_a3 = 7;
static int var_a;
static const int constant_a = 9;
static int *managed_a;

struct rg_stub_calls rg_stub;

int rg_open_stub(void)
{
	const char *path = getenv("RG_STUB");
	void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!h) {
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(unset)",
			dlerror());
		return 0;
	}
	*(void **)&rg_stub.fat_binary = dlsym(h, "__cudaRegisterFatBinary");
	*(void **)&rg_stub.fat_binary_end = dlsym(h, "__cudaRegisterFatBinaryEnd");
	*(void **)&rg_stub.unregister = dlsym(h, "__cudaUnregisterFatBinary");
	*(void **)&rg_stub.function = dlsym(h, "__cudaRegisterFunction");
	*(void **)&rg_stub.var = dlsym(h, "__cudaRegisterVar");
	*(void **)&rg_stub.managed_var = dlsym(h, "__cudaRegisterManagedVar");
	*(void **)&rg_stub.init_module = dlsym(h, "__cudaInitModule");
	*(void **)&rg_stub.push = dlsym(h, "__cudaPushCallConfiguration");
	*(void **)&rg_stub.launch = dlsym(h, "cudaLaunchKernel");
	*(void **)&rg_stub.device_count = dlsym(h, "cudaGetDeviceCount");
	*(void **)&rg_stub.last_error = dlsym(h, "cudaGetLastError");
	return rg_stub.fat_binary && rg_stub.fat_binary_end && rg_stub.unregister &&
	       rg_stub.function && rg_stub.var && rg_stub.managed_var && rg_stub.init_module &&
	       rg_stub.push && rg_stub.launch && rg_stub.device_count && rg_stub.last_error;
}

static void function(void **h, void (*host)(void), const char *name)
{
	rg_stub.function(h, (const char *)host, (char *)name, name, -1, NULL, NULL, NULL, NULL,
			 NULL);
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

void rg_print_events(void)
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
	void **c, **z = rg_stub.fat_binary((void *)&wrapper_z);

	/* module Z: what it keeps beyond its records comes before A's */
	rg_stub.var(z, (char *)&var_z, (char *)"vZ", "vZ", 0, sizeof var_z, 1, 0);
	rg_stub.fat_binary_end(z);
	*a = rg_stub.fat_binary((void *)&wrapper_a);
	function(*a, host_a1, "kA1");
	/* not as nvcc registers: every argument kept */
	rg_stub.function(*a, (const char *)host_a3, (char *)"kA3", "kA3", 128, &tid_a3, &bid_a3,
			 &block_a3, &grid_a3, &warp_a3);
	/* nvcc's thread limit with one pointer, the first and the last passed
	 * on the stack of x86-64 and of aarch64: kept as well */
	rg_stub.function(*a, (const char *)host_a3, (char *)"kA4", "kA4", -1, NULL, &bid_a3, NULL,
			 NULL, NULL);
	rg_stub.function(*a, (const char *)host_a3, (char *)"kA5", "kA5", -1, NULL, NULL, NULL,
			 &grid_a3, NULL);
	rg_stub.function(*a, (const char *)host_a3, (char *)"kA6", "kA6", -1, NULL, NULL, NULL,
			 NULL, &warp_a3);
	/* Z's records are half the log now: dropped, and A's move down */
	rg_stub.unregister(z);
	rg_stub.var(*a, (char *)&var_a, (char *)"vA", "vA", 0, sizeof var_a, 0, 0);
	rg_stub.var(*a, (char *)&constant_a, (char *)"cA", "cA", 1, sizeof constant_a, 1, 1);
	*b = rg_stub.fat_binary((void *)&wrapper_b);
	function(*b, host_b1, "kB1");
	rg_stub.managed_var(*a, (void **)&managed_a, (char *)"mA", "mA", 0, 2 * sizeof(int), 0, 0);
	rg_stub.fat_binary_end(*a);
	rg_stub.fat_binary_end(*b);
	c = rg_stub.fat_binary((void *)&wrapper_c);
	function(c, host_c1, "kC1");
	rg_stub.fat_binary_end(c);
	rg_stub.unregister(c);
}

int rg_scenario_replay(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b, **d;
	int count = -1;

	if (!rg_open_stub())
		return 3;
	register_abc(&a, &b);
	printf("loaded_before_first_call=%d\n", fake_loaded());
	printf("stub_handles=%d\n", ((size_t)a & 1) && ((size_t)b & 1));
	printf("count_rc=%d\n", (int)rg_stub.device_count(&count));
	printf("loaded_after_first_call=%d\n", fake_loaded());
	/* after the load: forwarded at once, with the runtime's handles */
	d = rg_stub.fat_binary((void *)&wrapper_d);
	printf("runtime_handle=%d\n", d && !((size_t)d & 1));
	function(d, host_d1, "kD1");
	rg_stub.fat_binary_end(d);
	function(a, host_a2, "kA2"); /* a stub handle, mapped */
	printf("init=%d\n", rg_stub.init_module(a));
	printf("managed_value=%d\n", managed_a ? managed_a[1] : -1);
	rg_stub.push(one, one, 0, NULL);
	printf("launch_b_rc=%d\n",
	       (int)rg_stub.launch((const void *)host_b1, one, one, NULL, 0, 0));
	printf("launch_c_rc=%d\n",
	       (int)rg_stub.launch((const void *)host_c1, one, one, NULL, 0, 0));
	rg_stub.unregister(a);
	rg_stub.unregister(b);
	rg_stub.unregister(d);
	rg_print_events();
	free(managed_a);
	return 0;
}

/* The first call that needs the runtime is __cudaInitModule: a host access
 * to a __managed__ variable. */
int rg_scenario_init_first(void)
{
	void **a, **b;

	if (!rg_open_stub())
		return 3;
	register_abc(&a, &b);
	printf("init=%d\n", rg_stub.init_module(a));
	printf("managed_value=%d\n", managed_a ? managed_a[0] : -1);
	rg_print_events();
	free(managed_a);
	return 0;
}

/* The first call is a launch: __cudaPushCallConfiguration. */
int rg_scenario_launch_first(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b;

	if (!rg_open_stub())
		return 3;
	register_abc(&a, &b);
	rg_stub.push(one, one, 0, NULL);
	printf("launch_a_rc=%d\n",
	       (int)rg_stub.launch((const void *)host_a1, one, one, NULL, 0, 0));
	rg_print_events();
	return 0;
}

/* No runtime: every call returns its documented value, nothing crashes,
 * and unregistering frees what was recorded (valgrind's leak check). */
int rg_scenario_no_runtime(void)
{
	dim3 one = {1, 1, 1};
	void **a, **b;
	int count = -1;

	if (!rg_open_stub())
		return 3;
	register_abc(&a, &b);
	printf("count_rc=%d\n", (int)rg_stub.device_count(&count));
	printf("init=%d\n", rg_stub.init_module(a));
	printf("push=%u\n", rg_stub.push(one, one, 0, NULL));
	printf("launch_rc=%d\n", (int)rg_stub.launch((const void *)host_a1, one, one, NULL, 0, 0));
	printf("last_rc=%d\n", (int)rg_stub.last_error());
	/* a module registered after the failed search is still recorded */
	function(rg_stub.fat_binary((void *)&wrapper_d), host_d1, "kD1");
	rg_stub.unregister(a);
	rg_stub.unregister(b);
	printf("managed=%d\n", managed_a != NULL);
	return 0;
}
