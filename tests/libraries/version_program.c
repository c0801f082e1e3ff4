/*
 * A program that links a library (NVIDIA's, at build time) and prints its
 * version query's result: what tests/libraries/test_library_adoption.c
 * patches and runs through the stub and the shim. VP_VERSION_FN and
 * VP_FORM_PROPERTY or VP_FORM_VALUE come from the build; the prototype is
 * the query's form.
 */
#include <stdio.h>

#if VP_FORM_PROPERTY
int VP_VERSION_FN(int kind, int *value);
#elif VP_FORM_VALUE
int VP_VERSION_FN(unsigned *value);
#else
int VP_VERSION_FN(int *major, int *minor);
#endif

int main(void)
{
	int v[3] = {-1, -1, -1}, rc = 0;

#if VP_FORM_PROPERTY
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
#else
	rc = VP_VERSION_FN(&v[0], &v[1]);
	v[2] = 0;
#endif
	printf("rc=%d version=%d.%d.%d\n", rc, v[0], v[1], v[2]);
	return 0;
}
