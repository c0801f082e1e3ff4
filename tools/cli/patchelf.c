/*
 * What `cudastub patch` asks of patchelf: read a file's DT_NEEDED entries
 * and RUNPATH, replace entries, set the RUNPATH. Debian 12's patchelf 0.14
 * corrupts a file given several --replace-needed and --set-rpath at once,
 * so the RUNPATH is a call of its own; the entries are replaced in one
 * call, since each call reads and writes the whole file (MAGMA's 447 MB
 * library: 24.5 s one entry a call, 11.3 s in one, the same entries and
 * version needs read back).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "patch.h"

extern char **environ;

const char *patchelf_find(void)
{
	static char found[4096];
	const char *path = getenv("PATH");
	char dirs[8192], *dir, *save = NULL;

	if (found[0])
		return found;
	snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof found, "%s/patchelf", *dir ? dir : ".");
		if (access(found, X_OK) == 0)
			return found;
	}
	found[0] = '\0';
	return NULL;
}

/* Runs patchelf with args; its stdout (trailing newline cut) in out, when
 * out is given. 0 when it exited 0. */
static int run(char *const *args, char *out, size_t size)
{
	char *argv[4 + 3 * CUDASTUB_LIB_COUNT];
	int pipe_fd[2], status, n = 0;
	posix_spawn_file_actions_t actions;
	size_t used = 0;
	ssize_t got;
	pid_t pid;

	argv[n++] = (char *)patchelf_find();
	for (int i = 0; args[i] && n < (int)(sizeof argv / sizeof *argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (!argv[0] || pipe(pipe_fd) != 0)
		return -1;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], 1);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
	if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&actions);
		close(pipe_fd[0]);
		close(pipe_fd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&actions);
	close(pipe_fd[1]);
	while (out && used + 1 < size && (got = read(pipe_fd[0], out + used, size - used - 1)) > 0)
		used += (size_t)got;
	while (!out && read(pipe_fd[0], &status, sizeof status) > 0)
		;
	close(pipe_fd[0]);
	if (out) {
		out[used] = '\0';
		while (used && out[used - 1] == '\n')
			out[--used] = '\0';
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int patchelf_needed(const char *file, char *out, size_t size)
{
	char *args[] = {"--print-needed", (char *)file, NULL};

	return run(args, out, size);
}

int patchelf_runpath(const char *file, char *out, size_t size)
{
	char *args[] = {"--print-rpath", (char *)file, NULL};

	return run(args, out, size);
}

int patchelf_replace_needed(const char *file, const char *const *from, const char *const *to,
			    int count)
{
	char *args[2 + 3 * CUDASTUB_LIB_COUNT];
	int n = 0;

	if (count < 1 || count > CUDASTUB_LIB_COUNT)
		return -1;
	for (int i = 0; i < count; i++) {
		args[n++] = "--replace-needed";
		args[n++] = (char *)from[i];
		args[n++] = (char *)to[i];
	}
	args[n++] = (char *)file;
	args[n] = NULL;
	return run(args, NULL, 0);
}

int patchelf_set_runpath(const char *file, const char *runpath)
{
	char *args[] = {"--set-rpath", (char *)runpath, (char *)file, NULL};

	return run(args, NULL, 0);
}

int patchelf_set_soname(const char *file, const char *soname)
{
	char *args[] = {"--set-soname", (char *)soname, (char *)file, NULL};

	return run(args, NULL, 0);
}
