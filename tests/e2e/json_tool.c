/* Python's json module on a temporary file holding the text. */
#define _GNU_SOURCE
#include "json_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

/* Writes text to a new file under $TMPDIR or /tmp; its path goes in path.
 * Returns 0 on success. */
static int write_temp(const char *text, char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");
	size_t len = strlen(text);
	int fd, ok;

	snprintf(path, size, "%s/cudastub-e2e-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == (ssize_t)len;
	return close(fd) == 0 && ok ? 0 : -1;
}

int e2e_json_tool(const char *text)
{
	static struct ts_child tool;
	char path[4096];
	char *argv[] = {"/usr/bin/python3", "-m", "json.tool", path, NULL};
	int rc;

	if (write_temp(text, path, sizeof path))
		return -1;
	rc = ts_run_program(argv, NULL, NULL, &tool);
	unlink(path);
	if (rc)
		return -1;
	if (tool.exit_code != 0)
		fprintf(stderr, "json.tool rejected the output:\n%s\n", tool.err);
	return tool.exit_code;
}

/* Prints every string value of the document named by argv[1]. */
static const char strings_script[] = "import json, sys\n"
				     "def walk(v):\n"
				     "    if isinstance(v, str):\n"
				     "        sys.stdout.buffer.write(v.encode('utf-8') + b'\\n')\n"
				     "    elif isinstance(v, list):\n"
				     "        for item in v:\n"
				     "            walk(item)\n"
				     "    elif isinstance(v, dict):\n"
				     "        for item in v.values():\n"
				     "            walk(item)\n"
				     "walk(json.load(open(sys.argv[1], encoding='utf-8')))\n";

int e2e_json_strings(const char *text, struct ts_child *strings)
{
	char path[4096];
	char *argv[] = {"/usr/bin/python3", "-c", (char *)strings_script, path, NULL};
	int rc;

	if (write_temp(text, path, sizeof path))
		return -1;
	rc = ts_run_program(argv, NULL, NULL, strings);
	unlink(path);
	if (rc)
		return -1;
	if (strings->exit_code != 0)
		fprintf(stderr, "python3's json module rejected the output:\n%s\n", strings->err);
	return strings->exit_code;
}
