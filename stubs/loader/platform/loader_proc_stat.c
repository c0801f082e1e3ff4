/*
 * Fields of a procfs stat file, /proc/self/stat for the process or
 * /proc/self/task/<tid>/stat for one of its threads (proc(5)).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "loader_proc_stat.h"
#include "loader_sys.h"

/* The file's text, read with cancellation off: open, read and close are
 * cancellation points, and a first call that waits for another thread's
 * search (loader_load.c) must not end there with its waiter counted. */
static ssize_t read_text(const char *path, char *text, size_t size)
{
	int caller, fd;
	ssize_t got = -1;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &caller);
	fd = cudastub_sys_open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		got = cudastub_sys_read(fd, text, size - 1);
		cudastub_sys_close(fd);
	}
	pthread_setcancelstate(caller, NULL);
	return got;
}

const char *cudastub_proc_stat_field(const char *path, int field, char *text, size_t size)
{
	ssize_t got;
	char *at;
	int n;

	if (size < 2 || field < 3 || (got = read_text(path, text, size)) <= 0)
		return NULL;
	text[got] = '\0';
	/* The name (2nd field) may hold spaces and parentheses: fields are
	 * counted from its last closing parenthesis. */
	at = strrchr(text, ')');
	for (n = 2; at && n < field; n++)
		at = strchr(at + 1, ' ');
	return at && at[1] ? at + 1 : NULL;
}
