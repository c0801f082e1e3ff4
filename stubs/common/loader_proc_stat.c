/*
 * Fields of a procfs stat file, /proc/self/stat for the process or
 * /proc/self/task/<tid>/stat for one of its threads (proc(5)).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "loader_process.h"

const char *cudastub_proc_stat_field(const char *path, int field, char *text, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n;
	ssize_t got;
	char *at;

	if (fd < 0 || size < 2 || field < 3) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	got = read(fd, text, size - 1);
	close(fd);
	if (got <= 0)
		return NULL;
	text[got] = '\0';
	/* The name (2nd field) may hold spaces and parentheses: fields are
	 * counted from its last closing parenthesis. */
	at = strrchr(text, ')');
	for (n = 2; at && n < field; n++)
		at = strchr(at + 1, ' ');
	return at && at[1] ? at + 1 : NULL;
}
