/*
 * Which DT_NEEDED entries name NVIDIA libraries, so that `cudastub patch`
 * can say which ones a patched file still needs without a stub: a packager
 * who sees "patched" must not believe the file is lazy while it still
 * loads cuDNN or NCCL at start-up. Data, not logic: the stems (the name
 * before ".so") of NVIDIA's CUDA-side libraries, and the few families
 * named by prefix (cuDNN's sub-libraries, NPP's, the driver's own).
 * And the names auditwheel gives the libraries it grafts into a wheel.
 */
#include <stdio.h>
#include <string.h>

#include "nvidia_names.h"

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

/* auditwheel grafts a library into a wheel as "<stem>-<8 hex digits of its
 * hash>.so<version>" and sets its SONAME (and so each DT_NEEDED on it) to
 * that name: libcudart-96c42e41.so.13 is libcudart.so.13. */
const char *nvidia_unhashed(const char *name, char *buf, size_t size)
{
	const char *so = strstr(name, ".so");
	size_t stem;

	if (!so || so - name < 10 || so[-9] != '-')
		return name;
	for (const char *h = so - 8; h < so; h++)
		if (!strchr("0123456789abcdef", *h))
			return name;
	stem = (size_t)(so - 9 - name);
	if (snprintf(buf, size, "%.*s%s", (int)stem, name, so) >= (int)size)
		return name;
	return buf;
}
