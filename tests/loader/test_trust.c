/*
 * The folders the stub derives by itself (pip's wheel folders above and
 * beside it) are searched only when no one but root and the user can have
 * put a library there (stubs/loader/search/loader_trust.c), and not at all in
 * secure mode.
 *
 * Each case builds a tree in a fresh temporary folder (mode 0700, owned by
 * the user running the tests): a copy of the stub in
 * <prefix>/site-packages/pkg/lib, a "planted" copy of the fake NVRTC 13 in
 * <prefix>/site-packages/nvidia/cu13/lib, and a healthy fake 12 in a
 * CUDA_HOME of its own, later in the search. A refused wheel folder shows
 * in the search's attempts with its reason, and the stub loads the fake 12.
 *
 * Another user's folder needs root (chown); so does the set-user-ID case,
 * which runs a set-user-ID-root copy of this test as "nobody" (setpriv).
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOBODY 65534

struct tree {
	char root[1024];
	char prefix[1536];
	char stub[4096];
	char planted[4096];
	char home[1536];
};

/* T/<prefix_rel>/site-packages/{pkg/lib/libnvrtc_stub.so,
 * nvidia/cu13/lib/libnvrtc.so.13} and T/home12/lib64/libnvrtc.so.12. */
static int make_tree(struct tree *t, const char *prefix_rel)
{
	char dir[2048 + 64];

	if (!ld_tmpdir(t->root, sizeof t->root))
		return -1;
	snprintf(t->prefix, sizeof t->prefix, "%s/%s", t->root, prefix_rel);
	snprintf(t->home, sizeof t->home, "%s/home12", t->root);
	snprintf(dir, sizeof dir, "%s/site-packages/pkg/lib", t->prefix);
	if (ld_mkdirs(dir) != 0)
		return -1;
	snprintf(t->stub, sizeof t->stub, "%s/libnvrtc_stub.so", dir);
	snprintf(dir, sizeof dir, "%s/site-packages/nvidia/cu13/lib", t->prefix);
	if (ld_mkdirs(dir) != 0)
		return -1;
	snprintf(t->planted, sizeof t->planted, "%s/libnvrtc.so.13", dir);
	snprintf(dir, sizeof dir, "%s/lib64", t->home);
	if (ld_mkdirs(dir) != 0)
		return -1;
	return ts_copy_file(ld_stub(), t->stub) || ts_copy_file(ld_fake("nvrtc-13"), t->planted) ||
	       ts_copy_file(ld_fake("nvrtc-12"), ld_fmt("%s/libnvrtc.so.12", dir));
}

static void run_in_tree(const struct tree *t, struct ts_child *c)
{
	const char *env[] = {ld_fmt("TEST_STUB=%s", t->stub), ld_fmt("CUDA_HOME=%s", t->home),
			     NULL};

	CU_ASSERT_EQUAL_FATAL(ld_run_probe(env, c), 0);
}

/* The planted library was refused (reason contains part) and the healthy
 * fake 12 from CUDA_HOME answered. */
static void expect_refused(const struct ts_child *c, const char *part)
{
	CU_ASSERT_TRUE(ld_attempt(c, "nvidia/cu13/lib/libnvrtc.so.13", "refused: "));
	CU_ASSERT_TRUE(ld_attempt(c, "nvidia/cu13/lib/libnvrtc.so.13", part));
	LD_EXPECT_FAKE(c, CUDASTUB_SOURCE_CUDA_HOME, 12, 4, "fake-nvrtc-12");
}

/* The wheel's fake 13 answered. */
static void expect_taken(const struct ts_child *c)
{
	LD_EXPECT_FAKE(c, CUDASTUB_SOURCE_PIP_WHEEL, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_FALSE(ld_attempt(c, "", "refused: "));
}

/* The planted library becomes a link, in its folder, to a copy in the
 * trusted root: the link itself could be changed after the check. */
static void link_planted(const struct tree *t)
{
	char trusted[2048];

	snprintf(trusted, sizeof trusted, "%s/trusted.so.13", t->root);
	CU_ASSERT_EQUAL_FATAL(rename(t->planted, trusted), 0);
	CU_ASSERT_EQUAL_FATAL(ld_link(trusted, t->planted), 0);
}

/* A folder another user made (the test gives it away with chown). */
static void give_theirs_away(const struct tree *t)
{
	CU_ASSERT_EQUAL_FATAL(chown(ld_fmt("%s/tmp/theirs", t->root), 4321, 4321), 0);
}

/* A tree, what is changed in it, and whether the wheel's library is then
 * refused (and why) or taken. */
struct trust_case {
	const char *name;
	const char *prefix;		       /* below the root, holding site-packages */
	void (*prepare)(const struct tree *t); /* or NULL */
	const char *loosened;		       /* below the root: chmod'ed to mode */
	unsigned mode;			       /* 0: nothing is */
	const char *refused;		       /* the refusal's reason; NULL: taken */
	int needs_root;
};

static const struct trust_case cases[] = {
	/* Today's layout: every folder the user's and 0755 (or the 0700 root). */
	{.name = "the user's own tree is searched", .prefix = "venv"},
	/* A prefix one to three folders below a world-writable folder that is
	 * not sticky: anyone could have made site-packages/nvidia there. */
	{.name = "a world-writable ancestor is refused",
	 .prefix = "shared/opt/venv",
	 .loosened = "shared",
	 .mode = 0777,
	 .refused = "writable by its group and others (mode 0777)"},
	{.name = "a group-writable ancestor is refused",
	 .prefix = "team/venv",
	 .loosened = "team",
	 .mode = 0775,
	 .refused = "writable by its group (mode 0775)"},
	/* A sticky world-writable folder above the user's own (a virtual
	 * environment under /tmp) is searched... */
	{.name = "a sticky ancestor is searched",
	 .prefix = "tmp/venv",
	 .loosened = "tmp",
	 .mode = 01777},
	/* ...but not when the sticky folder holds the library itself: anyone
	 * may create a name that is not there yet. */
	{.name = "a sticky folder holding the file is refused",
	 .prefix = "venv",
	 .loosened = "venv/site-packages/nvidia/cu13/lib",
	 .mode = 01777,
	 .refused = "sticky, but it holds the file"},
	{.name = "a library file writable by others is refused",
	 .prefix = "venv",
	 .loosened = "venv/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
	 .mode = 0666,
	 .refused = "writable by its group and others (mode 0666)"},
	{.name = "a link in a writable folder is refused",
	 .prefix = "venv",
	 .prepare = link_planted,
	 .loosened = "venv/site-packages/nvidia/cu13/lib",
	 .mode = 0777,
	 .refused = "nvidia/cu13/lib is writable by its group and others"},
	/* A folder that another user made in a sticky folder. */
	{.name = "another user's folder is refused",
	 .prefix = "tmp/theirs/venv",
	 .prepare = give_theirs_away,
	 .loosened = "tmp",
	 .mode = 01777,
	 .refused = "tmp/theirs is owned by user 4321, neither root nor this user",
	 .needs_root = 1},
	{.name = NULL},
};

static void run_case(const void *row)
{
	const struct trust_case *tc = row;
	struct tree t;
	struct ts_child c;

	if (tc->needs_root && geteuid() != 0) {
		ts_unavailable("giving a folder to another user needs root");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(make_tree(&t, tc->prefix), 0);
	if (tc->prepare)
		tc->prepare(&t);
	if (tc->mode)
		CU_ASSERT_EQUAL_FATAL(chmod(ld_fmt("%s/%s", t.root, tc->loosened), tc->mode), 0);
	run_in_tree(&t, &c);
	if (tc->refused)
		expect_refused(&c, tc->refused);
	else
		expect_taken(&c);
	ts_remove_tree(t.root);
}

/* The secure_probe scenario: whether the kernel marked this process
 * secure, then the probe. */
static int secure_probe(void)
{
	printf("at_secure=%lu\n", getauxval(AT_SECURE));
	return ld_probe();
}

/*
 * A set-user-ID-root copy of this test, run as nobody, with a planted
 * wheel beside its stub and a healthy CUDA_HOME: in secure mode the stub
 * searches no derived folder (and secure_getenv hides CUDA_HOME too).
 */
static void test_secure_mode_searches_no_derived_folder(void)
{
	struct tree t;
	struct ts_child c;
	char self[2048], copy[2048];
	ssize_t n;

	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
		ts_unavailable("a set-user-ID-root test program needs root and setpriv "
			       "(util-linux)");
		return;
	}
	if (*ts_emulator()) {
		/* setpriv would start the copy through binfmt_misc, without the
		 * emulator's library prefix */
		ts_not_applicable("a set-user-ID copy of a cross-built test cannot run under "
				  "qemu-user here; the native build runs this case");
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	CU_ASSERT_FATAL(n > 0);
	self[n] = '\0';
	CU_ASSERT_EQUAL_FATAL(make_tree(&t, "venv"), 0);
	/* nobody must reach the tree and run the program */
	CU_ASSERT_EQUAL_FATAL(chmod(t.root, 0755), 0);
	snprintf(copy, sizeof copy, "%s/venv/site-packages/pkg/lib/probe", t.root);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(self, copy), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(copy, 04755), 0);
	{
		char *argv[] = {"/usr/bin/setpriv",
				"--reuid=65534",
				"--regid=65534",
				"--clear-groups",
				copy,
				"--child",
				"secure_probe",
				NULL};
		const char *env[] = {ld_fmt("TEST_STUB=%s", t.stub), ld_fmt("CUDA_HOME=%s", t.home),
				     NULL};

		CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, env, NULL, &c), 0);
	}
	if (c.exit_code == 0 && ld_long(&c, "at_secure") == 0) {
		/* valgrind, for one, runs it without its privileges */
		ts_not_applicable("the set-user-ID program did not run in secure mode here "
				  "(under valgrind?)");
		ts_remove_tree(t.root);
		return;
	}
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_EQUAL(ld_long(&c, "at_secure"), 1);
	CU_ASSERT_TRUE(ld_attempt(&c, "", "not searched: secure mode"));
	CU_ASSERT_FALSE(ld_attempt(&c, "nvidia/cu13/lib", ""));
	CU_ASSERT_FALSE(ld_attempt(&c, "home12", ""));
	CU_ASSERT_NOT_EQUAL(ld_long(&c, "fake"), 1);
	if (c.exit_code != 0 || ld_long(&c, "at_secure") != 1)
		fprintf(stderr, "%s\n%s\n", c.out, c.err);
	ts_remove_tree(t.root);
}

static const struct ts_test tests[] = {
	{"secure mode searches no derived folder", test_secure_mode_searches_no_derived_folder},
	{NULL, NULL},
};

static const struct ts_suite suite = {"trust", NULL, NULL, tests};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		LD_PROBE_SCENARIO, {"secure_probe", secure_probe}, {NULL, NULL}};

	return ld_main_rows(argc, argv, scenarios, &suite, cases, sizeof *cases, run_case);
}
