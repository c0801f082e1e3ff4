/*
 * Every shell block of the guide (README.md and the .md files of docs/;
 * docs/reference is rendered and checked by e2e_docs_current) runs as a
 * reader would run it, or says why it cannot, so a command the guide
 * shows is a command that works. A fenced block whose info string starts with sh, bash or
 * shell is a script; console is one too, its commands being the lines
 * after a "$ " prompt. Right above the fence, one of these comments:
 *
 *   <!-- not run: <why> -->     not run here; why must be given
 *   <!-- run in: checkout -->   run in a copy of the source tree
 *
 * Without "run in", a block runs in a fresh empty folder holding app.c (a
 * program calling the runtime) and app, built from it against the CUDA
 * toolkit's runtime (/usr/local/cuda). Every block sees CUDASTUB_PREFIX,
 * this build installed into a temporary prefix, whose bin/ is first on
 * PATH and whose pkg-config folder is PKG_CONFIG_PATH. A block runs under
 * bash -e -o pipefail: any command failing fails it. The copy of the
 * source tree stays under the build folder, with the build a block makes
 * in it, so that the next run of the suite builds only what changed.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"

#ifndef E2E_CMAKE
#define E2E_CMAKE "cmake"
#endif

/* The folder the guide's commands take the toolkit from. */
#define DB_TOOLKIT "/usr/local/cuda"

enum { DB_MAX_BLOCKS = 256, DB_MAX_SCRIPT = 16384 };

struct db_block {
	char file[64]; /* relative to the source tree */
	unsigned line; /* of the opening fence */
	char lang[16];
	char why[256]; /* "not run" reason, "" when it runs */
	int marked;    /* a "not run" comment was above it */
	int checkout;  /* "run in: checkout" */
	char script[DB_MAX_SCRIPT];
};

static struct db_block blocks[DB_MAX_BLOCKS];
static int nblocks;
/* Comments that mark no shell block: "file:line: what" lines. */
static char stray[4096];
static char work[PATH_MAX], prefix[PATH_MAX + 16], checkout[PATH_MAX + 16];

static int is_shell(const char *lang)
{
	return !strcmp(lang, "sh") || !strcmp(lang, "bash") || !strcmp(lang, "shell") ||
	       !strcmp(lang, "console");
}

/* The fence of a line (its run of ` or ~, 3 or more, after up to 3 spaces),
 * and the info string after it; 0 when the line is none. */
static int fence_of(const char *line, char *fence, size_t size, const char **info)
{
	size_t n = 0;
	int indent = 0;

	while (*line == ' ' && indent < 4) {
		line++;
		indent++;
	}
	if (indent > 3 || (*line != '`' && *line != '~'))
		return 0;
	while (line[n] == line[0])
		n++;
	if (n < 3 || n >= size)
		return 0;
	memcpy(fence, line, n);
	fence[n] = '\0';
	*info = line + n;
	return 1;
}

/* What a comment line above a fence says: 1 for a "not run" reason or a
 * "run in" place (set in the block), -1 for either misspelt (no reason
 * after "not run", a place other than checkout), 0 for any other comment. */
static int read_marker(const char *line, struct db_block *b)
{
	const char *p = strstr(line, "<!--"), *end;

	if (!p)
		return 0;
	p += 4;
	while (*p == ' ')
		p++;
	end = strstr(p, "-->");
	if (!end)
		return 0;
	while (end > p && end[-1] == ' ')
		end--;
	if (!strncmp(p, "not run:", 8)) {
		p += 8;
		while (*p == ' ')
			p++;
		if (p >= end)
			return -1;
		b->marked = 1;
		snprintf(b->why, sizeof b->why, "%.*s", (int)(end - p), p);
		return 1;
	}
	if (!strncmp(p, "run in: checkout", 16) && p + 16 == end) {
		b->checkout = 1;
		return 1;
	}
	return !strncmp(p, "run in", 6) || !strncmp(p, "not run", 7) ? -1 : 0;
}

static void note_stray(const char *file, unsigned line, const char *what)
{
	size_t used = strlen(stray);

	snprintf(stray + used, sizeof stray - used, "%s:%u: %s\n", file, line, what);
}

/* Appends a block's line to its script; console blocks keep their
 * commands alone. */
static void add_line(struct db_block *b, const char *line)
{
	size_t used = strlen(b->script);

	if (!strcmp(b->lang, "console")) {
		if (strncmp(line, "$ ", 2) != 0)
			return;
		line += 2;
	}
	snprintf(b->script + used, sizeof b->script - used, "%s", line);
}

/* Reads one file of the guide (name relative to the source tree). */
static void read_guide(const char *name)
{
	char path[PATH_MAX], line[4096], fence[32] = "";
	/* the block-to-be of the comment lines just read */
	struct db_block pending;
	unsigned lineno = 0, pending_line = 0;
	struct db_block *open = NULL;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", CUDASTUB_TEST_SOURCE_DIR, name);
	f = fopen(path, "r");
	if (!f) {
		note_stray(name, 0, "cannot be read");
		return;
	}
	memset(&pending, 0, sizeof pending);
	while (fgets(line, sizeof line, f)) {
		char this_fence[32];
		const char *info;

		lineno++;
		if (fence[0]) {
			/* inside a fence: it closes on a run at least as long */
			if (fence_of(line, this_fence, sizeof this_fence, &info) &&
			    this_fence[0] == fence[0] && strlen(this_fence) >= strlen(fence) &&
			    strspn(info, " \t\r\n") == strlen(info)) {
				fence[0] = '\0';
				open = NULL;
			} else if (open) {
				add_line(open, line);
			}
			continue;
		}
		if (fence_of(line, fence, sizeof fence, &info)) {
			char lang[16] = "";

			sscanf(info, "%15[^ \t\r\n{]", lang);
			if (is_shell(lang) && nblocks < DB_MAX_BLOCKS) {
				open = &blocks[nblocks++];
				*open = pending;
				snprintf(open->file, sizeof open->file, "%s", name);
				open->line = lineno;
				snprintf(open->lang, sizeof open->lang, "%s", lang);
			} else if (pending.marked || pending.checkout) {
				note_stray(name, pending_line,
					   "a run marker above a block that is no shell block");
			}
			memset(&pending, 0, sizeof pending);
			continue;
		}
		if (strncmp(line, "<!--", 4) == 0) {
			/* comments stack right above a fence */
			int m = read_marker(line, &pending);

			if (m > 0)
				pending_line = lineno;
			else if (m < 0)
				note_stray(name, lineno,
					   "not <!-- not run: <why> --> nor <!-- run in: checkout "
					   "-->");
			continue;
		}
		if (pending.marked || pending.checkout)
			note_stray(name, pending_line, "a run marker not right above a fence");
		memset(&pending, 0, sizeof pending);
	}
	fclose(f);
	if (fence[0])
		note_stray(name, lineno, "a fence is never closed");
}

static void read_all(void)
{
	char pattern[PATH_MAX];
	glob_t g;
	size_t skip = strlen(CUDASTUB_TEST_SOURCE_DIR) + 1;

	read_guide("README.md");
	snprintf(pattern, sizeof pattern, "%s/docs/*.md", CUDASTUB_TEST_SOURCE_DIR);
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			read_guide(g.gl_pathv[i] + skip);
		globfree(&g);
	}
}

/* Runs a bash script (text) in dir with the blocks' environment; its
 * output in c. */
static int run_script(const char *dir, const char *text, struct ts_child *c)
{
	char script[2 * PATH_MAX], path_var[PATH_MAX + 8192], pkg[PATH_MAX + 64];
	char prefix_var[PATH_MAX + 32];
	const char *env[] = {path_var, prefix_var, pkg, NULL};
	char *argv[] = {
		"/bin/bash", "-c",	  "cd \"$1\" && exec /bin/bash -e -o pipefail \"$2\"",
		"bash",	     (char *)dir, script,
		NULL};
	FILE *f;

	snprintf(script, sizeof script, "%s/../cudastub-block.sh", dir);
	f = fopen(script, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	snprintf(path_var, sizeof path_var, "PATH=%s/bin:%s", prefix,
		 getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	snprintf(prefix_var, sizeof prefix_var, "CUDASTUB_PREFIX=%s", prefix);
	snprintf(pkg, sizeof pkg, "PKG_CONFIG_PATH=%s/lib/pkgconfig", prefix);
	return ts_run_program(argv, env, NULL, c);
}

/* bash -c cmd; 1 when it exited 0, else its output on stderr. */
static int sh_ok(const char *cmd, const char *what)
{
	char *argv[] = {"/bin/bash", "-e", "-c", (char *)cmd, NULL};
	struct ts_child c = {.exit_code = -1};

	if (ts_run_program(argv, NULL, NULL, &c) == 0 && c.exit_code == 0)
		return 1;
	fprintf(stderr, "%s failed:\n%s%s", what, c.out, c.err);
	return 0;
}

static const char app_c[] = "#include <stdio.h>\n"
			    "#include <cuda_runtime_api.h>\n"
			    "\n"
			    "int main(void)\n"
			    "{\n"
			    "\tint n = 0;\n"
			    "\tcudaError_t e = cudaGetDeviceCount(&n);\n"
			    "\n"
			    "\tprintf(\"%d devices: %s\\n\", n, cudaGetErrorString(e));\n"
			    "\treturn 0;\n"
			    "}\n";

static int suite_init(void)
{
	char cmd[4 * PATH_MAX];
	FILE *f;

	read_all();
	snprintf(work, sizeof work, "%s/cudastub-doc-blocks", ts_build_dir());
	snprintf(prefix, sizeof prefix, "%s/prefix", work);
	snprintf(checkout, sizeof checkout, "%s/checkout", work);
	/* the copy of the source tree keeps its build; everything else is new */
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%1$s' && cd '%1$s' && "
		 "find . -mindepth 1 -maxdepth 1 ! -name checkout -exec rm -rf {} + && "
		 "mkdir -p checkout sample",
		 work);
	if (!sh_ok(cmd, "making the work folder"))
		return 1;
	snprintf(cmd, sizeof cmd, "%s/sample/app.c", work);
	f = fopen(cmd, "w");
	if (!f)
		return 1;
	fputs(app_c, f);
	fclose(f);
	return 0;
}

static void test_every_block_marked_or_run(void)
{
	int run = 0, marked = 0;

	for (int i = 0; i < nblocks; i++) {
		const struct db_block *b = &blocks[i];

		if (b->marked && b->checkout) {
			fprintf(stderr, "%s:%u: marked both not run and run in\n", b->file,
				b->line);
			CU_FAIL("a block is marked both not run and run in");
		}
		if (b->marked) {
			marked++;
			printf("not run: %s:%u: %s\n", b->file, b->line, b->why);
		} else {
			run++;
		}
	}
	if (stray[0]) {
		fprintf(stderr, "%s", stray);
		CU_FAIL("a run marker misspelt, or marking no shell block (see above)");
	}
	printf("shell blocks of the guide: %d, %d run, %d not run\n", nblocks, run, marked);
	/* the guide has shell blocks, and this test found them */
	CU_ASSERT(nblocks >= 10);
	CU_ASSERT(run >= 1);
}

TS_TEST(test_every_block_marked_or_run, "every shell block of the guide runs or says why not");

/* Whether a block that runs needs the copy of the source tree. */
static int runs_in_checkout(void)
{
	for (int i = 0; i < nblocks; i++)
		if (blocks[i].checkout && !blocks[i].marked)
			return 1;
	return 0;
}

/* This build installed, and the sample program built, once for every
 * block; 0 (reported) when they cannot be. */
static int prepare(void)
{
	static int done = -1;
	char cmd[4 * PATH_MAX], header[PATH_MAX];

	if (done >= 0)
		return done;
	done = 0;
	snprintf(header, sizeof header, "%s/include/cuda_runtime_api.h", DB_TOOLKIT);
	if (access(header, R_OK) != 0) {
		ts_unavailable("the CUDA toolkit at " DB_TOOLKIT
			       ", whose headers and runtime the guide's blocks use");
		return 0;
	}
	if (!ts_install_build(E2E_CMAKE, prefix))
		return 0;
	snprintf(cmd, sizeof cmd,
		 "cd '%s/sample' && cc app.c -I" DB_TOOLKIT "/include -L" DB_TOOLKIT
		 "/lib64 -lcudart -o app",
		 work);
	if (!sh_ok(cmd, "building the sample app"))
		return 0;
	/* the copy of the source tree, where a block needs it: what the
	 * checkout holds, less its version control and build folders (the
	 * build a block made in the copy stays) */
	if (!runs_in_checkout()) {
		done = 1;
		return 1;
	}
	snprintf(cmd, sizeof cmd,
		 "cd '%1$s' && find . -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} + && "
		 "tar -C '%2$s' --exclude=./.git --exclude='./build*' --exclude='./python/build' "
		 "-cf - . | tar -xf -",
		 checkout, CUDASTUB_TEST_SOURCE_DIR);
	if (!sh_ok(cmd, "copying the source tree"))
		return 0;
	done = 1;
	return 1;
}

/* The last lines of text, at most max characters. */
static const char *tail(const char *text, size_t max)
{
	size_t n = strlen(text);

	return n > max ? text + n - max : text;
}

static void test_blocks_run(void)
{
	int failed = 0;

	if (!prepare()) {
		CU_FAIL("the blocks' install and sample could not be made (see above)");
		return;
	}
	for (int i = 0; i < nblocks; i++) {
		const struct db_block *b = &blocks[i];
		char dir[PATH_MAX + 64], cmd[4 * PATH_MAX];
		struct ts_child c = {.exit_code = -1};

		if (b->marked)
			continue;
		if (b->checkout) {
			snprintf(dir, sizeof dir, "%s", checkout);
		} else {
			snprintf(dir, sizeof dir, "%s/block-%d", work, i);
			snprintf(cmd, sizeof cmd, "rm -rf '%1$s' && cp -a '%2$s/sample' '%1$s'",
				 dir, work);
			if (!sh_ok(cmd, "making a block's folder")) {
				failed++;
				continue;
			}
		}
		printf("run: %s:%u\n", b->file, b->line);
		fflush(stdout);
		if (run_script(dir, b->script, &c) != 0 || c.exit_code != 0) {
			fprintf(stderr,
				"%s:%u: the block failed (exit %d) in %s:\n%s---- its output:\n"
				"%s%s----\n",
				b->file, b->line, c.exit_code, dir, b->script, tail(c.out, 8000),
				tail(c.err, 8000));
			failed++;
		}
	}
	CU_ASSERT_EQUAL(failed, 0);
}

TS_TEST(test_blocks_run, "every shell block not marked runs and exits 0");

TS_MAIN_SUITE("doc_blocks", suite_init, NULL, NULL)
