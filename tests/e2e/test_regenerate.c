/*
 * e2e_regenerate: tools/gen_stubs/regenerate.sh, run into a scratch tree,
 * reproduces every committed file made from NVIDIA's headers and
 * libraries byte for byte: the ABI records and export lists under data/,
 * and the reference tables rendered from them (docs/reference/).
 *
 * It needs Debian's python3 with the clang bindings and the CUDA 11.8 and
 * 12.4 fixtures; without them the test fails under CI=true and prints SKIP
 * elsewhere.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define PYTHON "/usr/bin/python3"

static struct ts_child out;

/* Not being able to run the test: a failure in CI, a SKIP elsewhere. */
static void cannot_run(const char *why)
{
	char line[1024];

	snprintf(line, sizeof line, "regeneration test: %s", why);
	ts_unavailable(line);
}

static int python_has_clang(void)
{
	char *argv[] = {PYTHON, "-c", "import clang.cindex; clang.cindex.Index.create()", NULL};

	return access(PYTHON, X_OK) == 0 && ts_run_program(argv, NULL, NULL, &out) == 0 &&
	       out.exit_code == 0;
}

/* diff -r, both ways; prints the difference when there is one. */
static int same_tree(const char *committed, const char *regenerated)
{
	char *argv[] = {"/usr/bin/diff", "-r", (char *)committed, (char *)regenerated, NULL};

	if (ts_run_program(argv, NULL, NULL, &out) != 0)
		return 0;
	if (out.exit_code != 0)
		fprintf(stderr, "regenerated files differ from the committed ones:\n%.4000s\n%s\n",
			out.out, out.err);
	return out.exit_code == 0;
}

/* The committed trees regenerate.sh writes. */
static const char *const outputs[] = {"data", "docs/reference"};

static void test_regeneration_reproduces_committed_files(void)
{
	char tmp[] = "/tmp/cudastub-regen-XXXXXX", script[4096], fixtures[4096];
	char committed[4096], regenerated[4096];
	const char *src = CUDASTUB_TEST_SOURCE_DIR;
	const char *h11, *h12;
	char *argv[] = {"/bin/bash", script, "--out", tmp, "--fixtures", fixtures, NULL};

	if (!python_has_clang()) {
		cannot_run(PYTHON " cannot import clang.cindex (apt-get install python3-clang)");
		return;
	}
	h11 = ts_fixture("headers-11.8");
	h12 = ts_fixture("headers-12.4");
	if (!h11 || !h12)
		return; /* ts_fixture said SKIP, or failed the test in CI */
	snprintf(fixtures, sizeof fixtures, "%s", h11);
	dirname(fixtures);
	snprintf(script, sizeof script, "%s/tools/gen_stubs/regenerate.sh", src);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmp));

	CU_ASSERT_FATAL(ts_run_program_ok(argv, "regenerate.sh", &out));
	if (strstr(out.err, "kept as committed")) {
		/* a record was copied, not regenerated: the check would be hollow */
		fprintf(stderr, "%s", out.err);
		if (ts_in_ci()) {
			CU_FAIL("regenerate.sh kept a record as committed");
		} else {
			fprintf(stderr, "SKIP (in part): some records were not regenerated\n");
		}
	}

	for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
		snprintf(committed, sizeof committed, "%s/%s", src, outputs[i]);
		snprintf(regenerated, sizeof regenerated, "%s/%s", tmp, outputs[i]);
		CU_ASSERT(same_tree(committed, regenerated));
	}
	ts_remove_tree(tmp);
}

TS_TEST(test_regeneration_reproduces_committed_files,
	"regenerate.sh reproduces data/ and docs/reference");

TS_MAIN_SUITE("regenerate", NULL, NULL, NULL)
