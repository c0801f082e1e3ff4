/*
 * A program that marks ranges with NVTX, as a framework built on CUDA 11 or
 * 12 does, linked against NVIDIA's libnvToolsExt.so.1: what
 * test_nvtoolsext_real.c patches and shims. It prints what each call
 * answered (line "calls"), and whether an injection table is there
 * (nvtxGetExportTable: the real library hands out its own, no library none).
 */
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

/* the v2 API as CUDA 11 and 12 programs see it: declarations only */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>

/* exported by the library, declared by no header (NvtxGetExportTableFunc_t) */
const void *nvtxGetExportTable(uint32_t exportTableId);

int main(void)
{
	nvtxEventAttributes_t attr = {0};
	nvtxDomainHandle_t domain;
	int push, push_ex, pop, pop_ex;
	nvtxRangeId_t range;

	attr.version = NVTX_VERSION;
	attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
	attr.message.ascii = "attributed";
	nvtxNameOsThreadA(1, "main");
	nvtxMarkA("start");
	push = nvtxRangePushA("outer");
	push_ex = nvtxRangePushEx(&attr);
	range = nvtxRangeStartW(L"wide");
	nvtxRangeEnd(range);
	pop_ex = nvtxRangePop();
	pop = nvtxRangePop();
	domain = nvtxDomainCreateA("cudastub");
	nvtxDomainMarkEx(domain, &attr);
	printf("calls push=%d push_ex=%d pop_ex=%d pop=%d range=%llu domain=%s string=%s "
	       "sync=%s\n",
	       push, push_ex, pop_ex, pop, (unsigned long long)range, domain ? "handle" : "null",
	       nvtxDomainRegisterStringA(domain, "s") ? "handle" : "null",
	       nvtxDomainSyncUserCreate(domain, NULL) ? "handle" : "null");
	nvtxDomainDestroy(domain);
	printf("table %s\n", nvtxGetExportTable(1) ? "yes" : "no");
	return 0;
}
