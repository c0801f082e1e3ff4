/*
 * The 64-thread first-call storm: 64 threads, released together, each make
 * their process's first call of a different runtime function, so that 64
 * slots are resolved at once while the library is being found and loaded.
 * The fake runtime (slow to load) must be initialised once, and every
 * result must be right: the three functions the fake answers give its
 * values, the 61 it lacks give cudaErrorCallRequiresNewerDriver, as the
 * stub's contract says (none of their arguments is touched).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "race.h"

enum { STORM = 64, ANSWERED = 3 };

static pthread_barrier_t start;
static cudaError_t results[STORM];
static int values[ANSWERED];

/* Function i of the storm (a pointer argument gets a scratch buffer). */
static cudaError_t call(int i)
{
	static char scratch[STORM][256];
	void *buf = scratch[i];

	switch (i) {
	case 0: return cudaRuntimeGetVersion(&values[0]);
	case 1: return cudaDriverGetVersion(&values[1]);
	case 2: return cudaGetDeviceCount(&values[2]);
	case 3: return cudaDeviceGetTexture1DLinearMaxWidth(buf, buf, 0);
	case 4: return cudaDeviceGetStreamPriorityRange(buf, buf);
	case 5: return cudaDeviceGetByPCIBusId(buf, buf);
	case 6: return cudaDeviceGetPCIBusId(buf, 0, 0);
	case 7: return cudaIpcGetEventHandle(buf, NULL);
	case 8: return cudaIpcGetMemHandle(buf, buf);
	case 9: return cudaIpcCloseMemHandle(buf);
	case 10: return cudaPeekAtLastError();
#if CUDART_VERSION >= 13000 /* a build of an older ABI calls another */
	case 11: return cudaDeviceGetHostAtomicCapabilities(buf, buf, 0, 0);
#else
	case 11: return cudaGraphicsUnregisterResource(NULL);
#endif
	case 12: return cudaDeviceGetDefaultMemPool(buf, 0);
	case 13: return cudaDeviceSetMemPool(0, NULL);
	case 14: return cudaDeviceGetMemPool(buf, 0);
	case 15: return cudaDeviceGetNvSciSyncAttributes(buf, 0, 0);
#if CUDART_VERSION >= 13000
	case 16: return cudaDeviceGetP2PAtomicCapabilities(buf, buf, 0, 0, 0);
#else
	case 16: return cudaArrayGetInfo(buf, buf, buf, NULL);
#endif
	case 17: return cudaInitDevice(0, 0, 0);
	case 18: return cudaSetDevice(0);
	case 19: return cudaGetDevice(buf);
	case 20: return cudaSetValidDevices(buf, 0);
	case 21: return cudaSetDeviceFlags(0);
	case 22: return cudaGetDeviceFlags(buf);
	case 23: return cudaStreamCreate(buf);
	case 24: return cudaStreamCreateWithFlags(buf, 0);
	case 25: return cudaStreamCreateWithPriority(buf, 0, 0);
	case 26: return cudaStreamGetPriority(NULL, buf);
	case 27: return cudaStreamGetFlags(NULL, buf);
	case 28: return cudaStreamGetId(NULL, buf);
#if CUDART_VERSION >= 12080
	case 29: return cudaStreamGetDevice(NULL, buf);
#else
	case 29: return cudaGetSymbolSize(buf, buf);
#endif
	case 30: return cudaCtxResetPersistingL2Cache();
	case 31: return cudaStreamCopyAttributes(NULL, NULL);
	case 32: return cudaStreamDestroy(NULL);
	case 33: return cudaStreamWaitEvent(NULL, NULL, 0);
	case 34: return cudaStreamSynchronize(NULL);
	case 35: return cudaStreamQuery(NULL);
	case 36: return cudaStreamAttachMemAsync(NULL, buf, 0, 0);
	case 37: return cudaThreadExchangeStreamCaptureMode(buf);
	case 38: return cudaStreamEndCapture(NULL, buf);
	case 39: return cudaStreamIsCapturing(NULL, buf);
	case 40: return cudaEventCreate(buf);
	case 41: return cudaEventCreateWithFlags(buf, 0);
	case 42: return cudaEventRecord(NULL, NULL);
	case 43: return cudaEventRecordWithFlags(NULL, NULL, 0);
	case 44: return cudaEventQuery(NULL);
	case 45: return cudaEventSynchronize(NULL);
	case 46: return cudaEventDestroy(NULL);
	case 47: return cudaEventElapsedTime(buf, NULL, NULL);
	case 48: return cudaDestroyExternalMemory(NULL);
	case 49: return cudaDestroyExternalSemaphore(NULL);
	case 50: return cudaFuncSetCacheConfig(buf, 0);
	case 51: return cudaFuncGetName(buf, buf);
	case 52: return cudaFuncGetParamInfo(buf, 0, buf, buf);
	case 53: return cudaOccupancyMaxActiveBlocksPerMultiprocessor(buf, buf, 0, 0);
	case 54: return cudaOccupancyAvailableDynamicSMemPerBlock(buf, buf, 0, 0);
	case 55: return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(buf, buf, 0, 0, 0);
	case 56: return cudaMallocManaged(buf, 0, 0);
	case 57: return cudaMalloc(buf, 0);
	case 58: return cudaMallocHost(buf, 0);
	case 59: return cudaMallocPitch(buf, buf, 0, 0);
	case 60: return cudaMallocArray(buf, buf, 0, 0, 0);
	case 61: return cudaFree(buf);
	case 62: return cudaFreeHost(buf);
	case 63: return cudaFreeArray(NULL);
	}
	return cudaErrorUnknown;
}

static void *storm_thread(void *arg)
{
	int i = (int)(size_t)arg;

	pthread_barrier_wait(&start);
	results[i] = call(i);
	return NULL;
}

int race_scenario_function_storm(void)
{
	const cudastub_library_info *info;
	pthread_t threads[STORM];
	int ok = 0, *loads = NULL;
	void *fake;

	race_bound();
	pthread_barrier_init(&start, NULL, STORM);
	for (int i = 0; i < STORM; i++)
		pthread_create(&threads[i], NULL, storm_thread, (void *)(size_t)i);
	for (int i = 0; i < STORM; i++)
		pthread_join(threads[i], NULL);
	ok += results[0] == cudaSuccess && values[0] == CUDART_VERSION;
	ok += results[1] == cudaSuccess && values[1] == 0;
	ok += results[2] == cudaSuccess && values[2] == 1;
	for (int i = ANSWERED; i < STORM; i++) {
		ok += results[i] == cudaErrorCallRequiresNewerDriver;
		if (results[i] != cudaErrorCallRequiresNewerDriver)
			printf("wrong.%d=%d\n", i, (int)results[i]);
	}
	info = cudastub_cudart_info();
	fake = info->path ? dlopen(info->path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	if (fake)
		loads = dlsym(fake, "fake_cudart_loads");
	printf("results_ok=%d\nstate=%d\nfake_loads=%d\n", ok, (int)info->state,
	       loads ? *loads : -1);
	fflush(stdout);
	return 0;
}
