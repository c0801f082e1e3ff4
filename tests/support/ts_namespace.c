/* A folder over /usr/local in a child's own mount namespace (ts_namespace.h). */
#define _GNU_SOURCE
#include "ts_namespace.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int ts_bind_usr_local(const char *tree)
{
	const char *step = NULL;

	if (unshare(CLONE_NEWNS) != 0)
		step = "unshare";
	else if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
		step = "private";
	else if (mount(tree, "/usr/local", "none", MS_BIND, NULL) != 0)
		step = "bind";
	if (!step)
		return 0;
	printf("namespace=%s: %s\n", step, strerror(errno));
	fflush(stdout);
	return TS_NAMESPACE_REFUSED;
}

int ts_namespace_refused(const struct ts_child *c)
{
	char why[256];

	if (c->exit_code != TS_NAMESPACE_REFUSED || !strstr(c->out, "namespace="))
		return 0;
	snprintf(why, sizeof why, "no private mount namespace to hide /usr/local (%s)",
		 ts_text(c, "namespace"));
	ts_unavailable(why);
	return 1;
}
