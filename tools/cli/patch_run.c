/*
 * The programs `cudastub patch` runs: patchelf, and Python for wheels.
 * Each is started by posix_spawn after stdio is flushed (a buffer copied
 * into a child would be written twice: once by it, once by us), with its
 * output read back through pipes and its descriptor CHILD_FD, where
 * given, the private folder it works in (fs_child_path).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "patch_fs.h"
#include "patch_run.h"

extern char **environ;

/* Where one of the child's streams goes: a buffer, or nowhere. */
struct sink {
	int fd;
	char *buf;
	size_t size, used;
};

/* Reads what the child writes on both pipes until both close. */
static void drain(struct sink *s)
{
	struct pollfd p[2] = {{s[0].fd, POLLIN, 0}, {s[1].fd, POLLIN, 0}};
	char discard[4096];

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			char *to = discard;
			size_t room = sizeof discard;
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (s[i].buf && s[i].used + 1 < s[i].size) {
				to = s[i].buf + s[i].used;
				room = s[i].size - s[i].used - 1;
			}
			n = read(p[i].fd, to, room);
			if (n > 0 && to != discard)
				s[i].used += (size_t)n;
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				p[i].fd = -1;
		}
	}
	for (int i = 0; i < 2; i++)
		if (s[i].buf) {
			s[i].buf[s[i].used] = '\0';
			while (s[i].used && s[i].buf[s[i].used - 1] == '\n')
				s[i].buf[--s[i].used] = '\0';
		}
}

/* Starts argv with its streams on the pipes' write ends and fd as
 * CHILD_FD; the child's pid, or -1 with errno. */
static pid_t start(char *const *argv, int fd, const int *out_pipe, const int *err_pipe)
{
	posix_spawn_file_actions_t actions;
	pid_t pid = -1;
	int rc;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
	posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
	if (fd >= 0)
		posix_spawn_file_actions_adddup2(&actions, fd, CHILD_FD);
	fflush(NULL);
	rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return pid;
}

int run_program(char *const *argv, int fd, char *out, size_t osize, char *err, size_t esize)
{
	int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, status, spare = -1;
	struct sink s[2] = {{-1, out, osize, 0}, {-1, err, esize, 0}};
	pid_t pid = -1;

	if (out && osize)
		out[0] = '\0';
	if (err && esize)
		err[0] = '\0';
	/* above CHILD_FD, so that the dup2 onto it always happens (and so
	 * clears close-on-exec) */
	if (fd >= 0 && (spare = fcntl(fd, F_DUPFD_CLOEXEC, CHILD_FD + 1)) < 0)
		return -1;
	if (pipe2(out_pipe, O_CLOEXEC) == 0 && pipe2(err_pipe, O_CLOEXEC) == 0)
		pid = start(argv, spare, out_pipe, err_pipe);
	if (pid < 0 && err && esize)
		snprintf(err, esize, "%s: %s", argv[0], strerror(errno));
	for (int i = 0; i < 2; i++) {
		int *p = i ? err_pipe : out_pipe;

		if (p[1] >= 0)
			close(p[1]);
		s[i].fd = p[0];
	}
	if (spare >= 0)
		close(spare);
	if (pid > 0)
		drain(s);
	for (int i = 0; i < 2; i++)
		if (s[i].fd >= 0)
			close(s[i].fd);
	if (pid <= 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
