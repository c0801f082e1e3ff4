/*
 * The registration and launch entry points nvcc's code calls, faked so that
 * the runtime stub's deferral and replay can be watched (tests/cudart
 * registry suites, tests/e2e nvcc programs):
 *
 *   - each module gets a handle of the fake's own (a small struct); a call
 *     naming any other handle logs "bad-handle <call>";
 *   - every registration call appends one line to the event log, which the
 *     ordinary call log (fake_cudart_record) feeds too, so the order of
 *     replays and API calls can be read back:
 *       fatbin m<i> | end m<i> | function m<i> <name> | var m<i> <name> <size>
 *       | managed m<i> <name> <size> | init m<i> | unregister m<i>
 *       | launch <name> | call <api function>
 *   - __cudaInitModule points every managed variable of the module at a
 *     buffer holding FAKE_MANAGED_VALUE in each int, as the real runtime
 *     points them at managed memory; a launch looks its kernel up by host
 *     function, so it finds only what was registered.
 *
 * FAKE_CUDART_SLOW_MS makes loading the fake slow, to widen races;
 * FAKE_CUDART_REGISTER_SLOW_MS makes each __cudaRegisterFunction that long,
 * after it has logged and registered the function (so that a replay
 * outlasts the stub's fork wait, and a fork lands in the middle of it);
 * FAKE_CUDART_TRACE=1 also writes each event to stderr as "fake: <event>",
 * for whole programs that cannot read the log themselves.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_cudart.h"

#define FAKE_MANAGED_VALUE 42

enum { MAX_MODULES = 64, MAX_SYMBOLS = 256, EVENT_LEN = 160 };

struct fake_module {
	int index;
	int unregistered;
};

static struct fake_module modules[MAX_MODULES];
static int module_count;

struct fake_symbol {
	const void *host; /* host stub, or host variable pointer's address */
	const char *name;
	struct fake_module *module;
	size_t size;
	int managed;
};

static struct fake_symbol symbols[MAX_SYMBOLS];
static int symbol_count;
/* modules and symbols: registration may come from several threads */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

FAKE_EXPORT char fake_cudart_events[FAKE_EVENT_LOG][EVENT_LEN];
FAKE_EXPORT int fake_cudart_event_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void fake_cudart_reset_register_locks(void)
{
	pthread_mutex_init(&table_lock, NULL);
	pthread_mutex_init(&lock, NULL);
}

/* Sleeps for the milliseconds the variable name holds, if any. */
static void sleep_as_told(const char *name)
{
	const char *slow = getenv(name);
	long ms = slow ? atol(slow) : 0;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	if (ms > 0)
		nanosleep(&ts, NULL);
}

__attribute__((constructor)) static void slow_load(void)
{
	sleep_as_told("FAKE_CUDART_SLOW_MS");
}

void fake_cudart_event(const char *fmt, ...)
{
	va_list ap;

	char event[EVENT_LEN];

	va_start(ap, fmt);
	vsnprintf(event, sizeof event, fmt, ap);
	va_end(ap);
	fake_lock(&lock);
	if (fake_cudart_event_count < FAKE_EVENT_LOG)
		memcpy(fake_cudart_events[fake_cudart_event_count], event, sizeof event);
	fake_cudart_event_count++;
	pthread_mutex_unlock(&lock);
	if (getenv("FAKE_CUDART_TRACE"))
		fprintf(stderr, "fake: %s\n", event);
}

static struct fake_module *module_of(void **handle, const char *call)
{
	struct fake_module *found = NULL;

	fake_lock(&table_lock);
	for (int i = 0; i < module_count && !found; i++)
		if ((void **)&modules[i] == handle && !modules[i].unregistered)
			found = &modules[i];
	pthread_mutex_unlock(&table_lock);
	if (!found)
		fake_cudart_event("bad-handle %s", call);
	return found;
}

static void add_symbol(const void *host, const char *name, struct fake_module *m, size_t size,
		       int managed)
{
	fake_lock(&table_lock);
	if (symbol_count < MAX_SYMBOLS)
		symbols[symbol_count++] = (struct fake_symbol){host, name, m, size, managed};
	pthread_mutex_unlock(&table_lock);
}

FAKE_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct fake_module *m;

	(void)fatCubin;
	fake_lock(&table_lock);
	m = module_count < MAX_MODULES ? &modules[module_count] : NULL;
	if (m)
		m->index = module_count++;
	pthread_mutex_unlock(&table_lock);
	if (m)
		fake_cudart_event("fatbin m%d", m->index);
	return (void **)m;
}

FAKE_EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
	struct fake_module *m = module_of(handle, "end");

	if (m)
		fake_cudart_event("end m%d", m->index);
}

FAKE_EXPORT void __cudaUnregisterFatBinary(void **handle)
{
	struct fake_module *m = module_of(handle, "unregister");

	if (m) {
		fake_cudart_event("unregister m%d", m->index);
		fake_lock(&table_lock);
		m->unregistered = 1;
		pthread_mutex_unlock(&table_lock);
	}
}

FAKE_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
					const char *deviceName, int thread_limit, uint3 *tid,
					uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
	struct fake_module *m = module_of(handle, "function");

	(void)deviceFun;
	if (!m)
		return;
	/* what nvcc passes (-1 and no pointers) as before; anything else
	 * shown, the pointers by the first value each points to */
	if (thread_limit == -1 && !tid && !bid && !bDim && !gDim && !wSize)
		fake_cudart_event("function m%d %s", m->index, deviceName);
	else
		fake_cudart_event("function m%d %s limit=%d tid=%d bid=%d bdim=%d gdim=%d wsize=%d",
				  m->index, deviceName, thread_limit, tid ? (int)tid->x : -1,
				  bid ? (int)bid->x : -1, bDim ? (int)bDim->x : -1,
				  gDim ? (int)gDim->x : -1, wSize ? *wSize : -1);
	add_symbol(hostFun, deviceName, m, 0, 0);
	sleep_as_told("FAKE_CUDART_REGISTER_SLOW_MS");
}

FAKE_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
				   const char *deviceName, int ext, size_t size, int constant,
				   int global)
{
	struct fake_module *m = module_of(handle, "var");

	(void)deviceAddress;
	if (!m)
		return;
	if (!ext && !constant && !global)
		fake_cudart_event("var m%d %s %zu", m->index, deviceName, size);
	else
		fake_cudart_event("var m%d %s %zu ext=%d constant=%d global=%d", m->index,
				  deviceName, size, ext, constant, global);
	add_symbol(hostVar, deviceName, m, size, 0);
}

FAKE_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
					  char *deviceAddress, const char *deviceName, int ext,
					  size_t size, int constant, int global)
{
	struct fake_module *m = module_of(handle, "managed");

	(void)deviceAddress, (void)ext, (void)constant, (void)global;
	if (!m)
		return;
	fake_cudart_event("managed m%d %s %zu", m->index, deviceName, size);
	add_symbol(hostVarPtrAddress, deviceName, m, size, 1);
}

FAKE_EXPORT char __cudaInitModule(void **handle)
{
	struct fake_module *m = module_of(handle, "init");

	if (!m)
		return 0;
	fake_cudart_event("init m%d", m->index);
	fake_lock(&table_lock);
	for (int i = 0; i < symbol_count; i++) {
		if (symbols[i].module != m || !symbols[i].managed)
			continue;
		int *memory = calloc(1, symbols[i].size + sizeof(int));

		for (size_t j = 0; memory && j < symbols[i].size / sizeof(int); j++)
			memory[j] = FAKE_MANAGED_VALUE;
		*(void **)symbols[i].host = memory;
	}
	pthread_mutex_unlock(&table_lock);
	return 1;
}

static dim3 pushed_grid, pushed_block;

FAKE_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
						 struct CUstream_st *stream)
{
	(void)sharedMem, (void)stream;
	fake_cudart_record("__cudaPushCallConfiguration");
	pushed_grid = gridDim;
	pushed_block = blockDim;
	return 0;
}

FAKE_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
						   void *stream)
{
	*gridDim = pushed_grid;
	*blockDim = pushed_block;
	*sharedMem = 0;
	*(cudaStream_t *)stream = 0;
	return cudaSuccess;
}

/* A launch by host function: the kernel must have been registered. */
static cudaError_t launch(const void *host)
{
	const char *name = NULL;

	fake_lock(&table_lock);
	for (int i = 0; i < symbol_count && !name; i++)
		if (symbols[i].host == host && !symbols[i].module->unregistered)
			name = symbols[i].name;
	pthread_mutex_unlock(&table_lock);
	if (name) {
		fake_cudart_event("launch %s", name);
		return cudaSuccess;
	}
	fake_cudart_event("launch unregistered");
	return cudaErrorInvalidDeviceFunction;
}

#if CUDART_VERSION >= 12000
/* The fake's kernel handle is the host function itself. */
FAKE_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr)
{
	*kernel = (cudaKernel_t)entryFuncAddr;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
					   void **args, size_t sharedMem, cudaStream_t stream)
{
	(void)gridDim, (void)blockDim, (void)args, (void)sharedMem, (void)stream;
	return launch(kernel);
}

FAKE_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
						void **args, size_t sharedMem, cudaStream_t stream)
{
	(void)gridDim, (void)blockDim, (void)args, (void)sharedMem, (void)stream;
	fake_cudart_event("per-thread stream");
	return launch(kernel);
}
#endif

FAKE_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
					 size_t sharedMem, cudaStream_t stream)
{
	(void)gridDim, (void)blockDim, (void)args, (void)sharedMem, (void)stream;
	return launch(func);
}

FAKE_EXPORT cudaError_t cudaGetLastError(void)
{
	fake_cudart_record("cudaGetLastError");
	return cudaSuccess;
}
