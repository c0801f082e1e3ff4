#define _GNU_SOURCE
#include "ts_files.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

const char *ts_tmpdir(const char *tag, char *buf, size_t size)
{
	const char *base = getenv("TMPDIR");

	snprintf(buf, size, "%s/cudastub-%s-XXXXXX", base && *base ? base : "/tmp", tag);
	return mkdtemp(buf);
}

int ts_copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out, rc = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = -1;
	if (n < 0 || close(out) != 0)
		rc = -1;
	close(in);
	return rc;
}

const char *ts_present(const char *path, const char *install)
{
	char why[PATH_MAX + 128];

	if (access(path, F_OK) == 0)
		return path;
	snprintf(why, sizeof why, "%s missing; %s", path, install);
	ts_unavailable(why);
	return NULL;
}

const char *ts_folder_of(const char *path, char *buf, size_t size)
{
	char *slash;

	snprintf(buf, size, "%s", path);
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return buf;
}

const char *ts_sanitizer_flags(const char *list, const char *prefix, char *buf, size_t size)
{
	char names[256], *item, *save = NULL;

	buf[0] = '\0';
	snprintf(names, sizeof names, "%s", list);
	for (item = strtok_r(names, ",", &save); item; item = strtok_r(NULL, ",", &save))
		snprintf(buf + strlen(buf), size - strlen(buf), " %s-fsanitize=%s", prefix, item);
	return buf;
}
