/*
 * A child's view of a machine without the CUDA toolkit: a folder of the
 * test's own mounted over /usr/local, in a mount namespace of the child's
 * own (the toolkit and its ld.so.cache entries hidden; nothing changes for
 * any other process). Needs the privilege to unshare, which CI has.
 */
#ifndef CUDASTUB_TS_NAMESPACE_H
#define CUDASTUB_TS_NAMESPACE_H

#include "test_support.h"

/* The exit status of a child that could not make its namespace. */
#define TS_NAMESPACE_REFUSED 4

/* In the child: tree over /usr/local. 0; or, refused, prints
 * "namespace=<step>: <why>" on stdout (flushed) and returns
 * TS_NAMESPACE_REFUSED, the status the child should exit with. */
int ts_bind_usr_local(const char *tree);

/* In the parent, after the child ran: whether it could not make its
 * namespace; if so, that is reported with ts_unavailable. */
int ts_namespace_refused(const struct ts_child *c);

#endif
