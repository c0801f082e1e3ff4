/*
 * The forms of a library's version query, as the build numbers them
 * (CMakeLists.txt: LC_FORM, VP_FORM; tools/gen_stubs/records.py:
 * version_query), and the reading of an encoded version: what
 * test_library_contract.c's child and version_program.c both do.
 */
#ifndef CUDASTUB_TESTS_VERSION_FORMS_H
#define CUDASTUB_TESTS_VERSION_FORMS_H

#define FORM_MAJOR_MINOR 0 /* nvJitLinkVersion(&major, &minor) */
#define FORM_PROPERTY	 1 /* cublasGetProperty(MAJOR_VERSION, &value), ... */
#define FORM_RETURNED	 2 /* cudnnGetVersion(): the code, 0 for none */
#define FORM_ENCODED	 3 /* ncclGetVersion(&code) */

/* A version code, major * 10000 + minor * 100 + patch (cuDNN 9, NCCL 2.9
 * on), as v[0].v[1].v[2]. */
static inline void version_from_code(long code, int v[3])
{
	v[0] = (int)(code / 10000);
	v[1] = (int)(code % 10000 / 100);
	v[2] = (int)(code % 100);
}

#endif
