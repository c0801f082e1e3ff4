/*
 * Which records were compiled against NVIDIA's headers (tests/records/
 * CMakeLists.txt): each library's stub of each ABI the build made, checked
 * against the headers of the release it was built from. The compile is the
 * check (a record that disagrees fails the build); this says that none was
 * left out: a pair whose headers are not fetched is a missing fixture
 * (SKIP offline, a failure in CI).
 */
#include <stdio.h>
#include <string.h>

#include "test_support.h"

static void test_every_record_checked(void)
{
	FILE *f = fopen(RC_MANIFEST, "r");
	char line[4096], lib[64], version[16], folder[4000], why[4200];
	int abi, checked = 0, missing = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "checked %63s %d %15s", lib, &abi, version) == 3) {
			checked++;
		} else if (sscanf(line, "missing %63s %d %15s %3999[^\n]", lib, &abi, version,
				  folder) == 4) {
			missing++;
			snprintf(why, sizeof why,
				 "the CUDA %s headers (%s), to check %s's %d-ABI record; "
				 "tests/fixtures/fetch.sh",
				 version, folder, lib, abi);
			ts_unavailable(why);
		} else {
			CU_FAIL("a line of the manifest that is neither checked nor missing");
		}
	}
	fclose(f);
	printf("\n  %d records checked against their headers, %d not\n", checked, missing);
	/* the runtime's, NVRTC's and the driver's of three ABIs at least */
	CU_ASSERT(checked + missing >= 9);
}

TS_TEST(test_every_record_checked, "every stub's record is compiled against its release's headers");

TS_MAIN_SUITE("records against NVIDIA's headers", NULL, NULL, NULL)
