/*
 * A program that links a library (NVIDIA's, at build time) and prints its
 * version query's result: what tests/libraries/test_library_adoption.c
 * patches and runs through the stub and the shim. VP_VERSION_FN, VP_FORM
 * (or VP_FORM_VALUE) and VP_NO_LIBRARY come from the build; the prototype
 * is the query's form.
 */
#include <stdio.h>

#include "version_forms.h"

#if VP_FORM == FORM_PROPERTY
int VP_VERSION_FN(int kind, int *value);
#elif VP_FORM_VALUE
int VP_VERSION_FN(unsigned *value);
#elif VP_FORM == FORM_MAJOR_MINOR
int VP_VERSION_FN(int *major, int *minor);
#elif VP_FORM == FORM_RETURNED
unsigned long VP_VERSION_FN(void);
#else
int VP_VERSION_FN(int *code);
#endif

int main(void)
{
	int v[3] = {-1, -1, -1}, rc = 0;

#if VP_FORM == FORM_PROPERTY
	/* every property, even after a failure; rc is the first failure's */
	for (int k = 0; k < 3; k++) {
		int r = VP_VERSION_FN(k, &v[k]);

		if (rc == 0)
			rc = r;
	}
#elif VP_FORM_VALUE
	unsigned value = 0;

	rc = VP_VERSION_FN(&value);
	v[0] = (int)value;
	v[1] = v[2] = 0;
#elif VP_FORM == FORM_MAJOR_MINOR
	rc = VP_VERSION_FN(&v[0], &v[1]);
	v[2] = 0;
#else
	/* a code: major * 10000 + minor * 100 + patch (cuDNN 9, NCCL 2.9 on) */
	long code = -1;
#if VP_FORM == FORM_RETURNED
	code = (long)VP_VERSION_FN();
	/* no status: a code of 0 is the stub's "no library" */
	rc = code > 0 ? 0 : VP_NO_LIBRARY;
#else
	int c = 0;

	rc = VP_VERSION_FN(&c);
	code = c;
#endif
	version_from_code(code, v);
#endif
	printf("rc=%d version=%d.%d.%d\n", rc, v[0], v[1], v[2]);
	return 0;
}
