/*
 * Which DT_NEEDED entries name NVIDIA libraries, so that `cudastub patch`
 * can say which ones a patched file still needs without a stub: a packager
 * who sees "patched" must not believe the file is lazy while it still
 * loads cuDNN or NCCL at start-up. Data, not logic: the stems (the name
 * before ".so") of NVIDIA's CUDA-side libraries, and the few families
 * named by prefix (cuDNN's sub-libraries, NPP's, the driver's own).
 */
#include <string.h>

#include "patch.h"

/* Whole stems. */
static const char *const stems[] = {
	"libcudart",	"libnvrtc",	 "libnvrtc-builtins", "libcuda",
	"libnvJitLink", "libcublas",	 "libcublasLt",	      "libcufft",
	"libcufftw",	"libcurand",	 "libcusparse",	      "libcusparseLt",
	"libcusolver",	"libcusolverMg", "libnvToolsExt",     "libnvtx3interop",
	"libnvjpeg",	"libnvfatbin",	 "libnvblas",	      "libnvvm",
	"libcudla",	"libcuinj64",	 "libaccinj64",	      "libnvptxcompiler",
	NULL,
};
/* Families: any stem that starts so. */
static const char *const prefixes[] = {
	"libcudnn",  "libnccl",	   "libnpp",	  "libnvidia-",	  "libcupti",
	"libcufile", "libnvperf_", "libcutensor", "libnvjitlink", NULL,
};

int nvidia_library(const char *name)
{
	const char *so = strstr(name, ".so");
	size_t len = so ? (size_t)(so - name) : strlen(name);

	for (const char *const *s = stems; *s; s++)
		if (strlen(*s) == len && !strncmp(name, *s, len))
			return 1;
	for (const char *const *p = prefixes; *p; p++)
		if (strlen(*p) <= len && !strncmp(name, *p, strlen(*p)))
			return 1;
	return 0;
}
