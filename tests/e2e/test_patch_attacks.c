/*
 * `cudastub patch` run by root over a tree another user owns (E2E_OWNER),
 * who attacks it; patchelf on the same files is the baseline, printed
 * beside.
 *
 *   - a symbolic link planted by the owner at each name the command uses
 *     or used for its temporary copies (<file>.cudastub-tmp, the stub's
 *     <name>.cudastub-tmp), at the stub's own name, and as the stub
 *     folder: root's file and folder behind each stay as they were;
 *   - a set-user-ID and a set-group-ID program, a file with two names, an
 *     extended attribute and an ACL: owner, group, mode, links and
 *     attributes are the original's, the hard-linked file is left alone
 *     with its other name, and the set-user-ID program run by nobody runs
 *     as its owner, never as root;
 *   - file capabilities: dropped, and said, as patchelf drops them;
 *   - no /proc: refused, nothing changed.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "e2e_patch.h"
#include "test_support.h"
#include "ts_files.h"
#include "e2e_tools.h"

static struct ts_child out;
static char work[PATH_MAX];

static const char secret[] = "precious\n";

/* work/secret (root's, 0700) holding victim (root's, 0600) and an empty
 * folder vdir; work/tree (the owner's) holding prog, a program that needs
 * the runtime. 0, or -1 after a failed assertion or a skip. */
static int lay_out(const char *tag)
{
	char prog[PATH_MAX + 16];

	if (!ts_present("/usr/bin/patchelf", "apt-get install patchelf") ||
	    !ts_present("/usr/bin/setpriv", "apt-get install util-linux") || !e2e_root() ||
	    !e2e_workdir(tag, work, sizeof work))
		return -1;
	if (e2e_sh("cd '%s' && mkdir -m 700 secret secret/vdir && printf '%s' > secret/victim && "
		   "chmod 600 secret/victim && mkdir tree tree/lib",
		   work, secret) != 0 ||
	    snprintf(prog, sizeof prog, "%s/tree/prog", work) < 0 || e2e_cuda_program(prog) != 0 ||
	    e2e_sh("chown -R %d:%d '%s/tree'", E2E_OWNER, E2E_GROUP, work) != 0) {
		CU_FAIL("could not lay the tree out");
		return -1;
	}
	return 0;
}

/* The owner, not root, plants a link at tree/<at> to target. */
static int plant(const char *at, const char *target)
{
	return e2e_sh(
		"cd '%s/tree' && setpriv --reuid=%d --regid=%d --clear-groups ln -s '%s' '%s'",
		work, E2E_OWNER, E2E_GROUP, target, at);
}

/* Whether root's victim is as it was: its bytes, owner and mode. */
static int victim_intact(void)
{
	char path[PATH_MAX + 32], got[64] = "";
	struct stat st;
	FILE *f;

	snprintf(path, sizeof path, "%s/secret/victim", work);
	if (stat(path, &st) != 0 || st.st_uid != 0 || (st.st_mode & 07777) != 0600)
		return 0;
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(got, sizeof got, f))
		got[0] = '\0';
	fclose(f);
	return !strcmp(got, secret) && st.st_size == (off_t)strlen(secret);
}

/* Whether work/<rel> needs the stub (readelf). */
static int patched(const char *rel)
{
	return e2e_sh("readelf -d '%s/%s' | grep -q 'NEEDED.*libcudart_stub'", work, rel) == 0;
}

/* The baseline: patchelf rewrites tree/prog in place, with the planted
 * link where it is; whether root's victim stayed as it was. */
static void baseline_patchelf(const char *attack)
{
	int rc = e2e_sh("cd '%s/tree' && cp -p prog prog.base && patchelf --replace-needed "
			"%s libcudart_stub.so prog.base && patchelf --set-rpath '$ORIGIN' "
			"prog.base && rm prog.base",
			work, E2E_CUDART_NEEDED);

	printf("\n  %s, baseline patchelf: exit %d, root's file %s", attack, rc,
	       victim_intact() ? "unchanged" : "CHANGED");
}

/* A link planted at a name the command uses or used for a temporary copy
 * (planted), aimed at root's file: root's file stays as it was. */
static void link_at_old_temporary(const char *tree, const char *planted, const char *attack)
{
	char prog[PATH_MAX + 16];

	if (lay_out(tree) != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(plant(planted, "../secret/victim"), 0);
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	baseline_patchelf(attack);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, prog, NULL), 0);
	CU_ASSERT(victim_intact());
	CU_ASSERT(patched("tree/prog"));
	printf("\n  %s: exit %d, root's file %s", attack, out.exit_code,
	       victim_intact() ? "unchanged" : "CHANGED");
	ts_remove_tree(work);
}

static void link_at_old_copy_name(void)
{
	link_at_old_temporary("patch-plant-copy", "prog.cudastub-tmp",
			      "link at <file>.cudastub-tmp");
}

TS_TEST(link_at_old_copy_name, "a link planted at <file>.cudastub-tmp: root's file unchanged");

static void link_at_old_stub_copy_name(void)
{
	link_at_old_temporary("patch-plant-stubcopy", "libcudart_stub.so.cudastub-tmp",
			      "link at <stub>.cudastub-tmp");
}

TS_TEST(link_at_old_stub_copy_name, "a link planted at <stub>.cudastub-tmp: root's file unchanged");

/* A link at the stub's own name is replaced by the stub, never written
 * through; the stub is the folder's owner's. */
static void link_at_stub_name(void)
{
	char prog[PATH_MAX + 16], stub[PATH_MAX + 96];
	struct stat st;

	if (lay_out("patch-plant-stub") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(plant(E2E_CUDART_STUB_NAME, "../secret/victim"), 0);
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	snprintf(stub, sizeof stub, "%s/tree/" E2E_CUDART_STUB_NAME, work);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, prog, NULL), 0);
	CU_ASSERT(victim_intact());
	CU_ASSERT(lstat(stub, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == E2E_OWNER);
	printf("\n  link at the stub's name: exit %d, root's file %s", out.exit_code,
	       victim_intact() ? "unchanged" : "CHANGED");
	ts_remove_tree(work);
}

TS_TEST(link_at_stub_name, "a link planted at the stub's name: replaced, never written through");

/* The tree's stub folder (lib/cudastub) planted as a link to root's
 * folder: nothing goes there; the file is left as it was, the failure
 * named. */
static void link_as_stub_folder(void)
{
	char tree[PATH_MAX + 16], saved[PATH_MAX + 32], prog[PATH_MAX + 32];

	if (lay_out("patch-plant-folder") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(plant("lib/cudastub", "../../secret/vdir"), 0);
	snprintf(tree, sizeof tree, "%s/tree", work);
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	snprintf(saved, sizeof saved, "%s/prog.orig", work);
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cp '%s' '%s'", prog, saved), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, tree, NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "lib/cudastub"));
	CU_ASSERT(e2e_same_bytes(prog, saved));
	CU_ASSERT_EQUAL(e2e_sh("[ -z \"$(ls -A '%s/secret/vdir')\" ]", work), 0);
	CU_ASSERT_EQUAL(e2e_sh("[ -z \"$(find '%s/tree' -name '.cudastub-*')\" ]", work), 0);
	printf("\n  link as the stub folder: exit %d, root's folder %s", out.exit_code,
	       e2e_sh("[ -z \"$(ls -A '%s/secret/vdir')\" ]", work) == 0 ? "empty" : "WRITTEN");
	ts_remove_tree(work);
}

TS_TEST(link_as_stub_folder, "a link planted as the stub folder: nothing goes there, said");

/* ---- identity ---- */

/* An ACL giving uid 4244 r-x (system.posix_acl_access, version 2:
 * user::rwx, user:4244:r-x, group::r-x, mask::r-x, other::r-x). */
static const unsigned char acl[] = {
	2,    0, 0, 0,			       /* version */
	0x01, 0, 7, 0, 0xff, 0xff, 0xff, 0xff, /* ACL_USER_OBJ rwx */
	0x02, 0, 5, 0, 0x94, 0x10, 0,	 0,    /* ACL_USER 4244 r-x */
	0x04, 0, 5, 0, 0xff, 0xff, 0xff, 0xff, /* ACL_GROUP_OBJ r-x */
	0x10, 0, 5, 0, 0xff, 0xff, 0xff, 0xff, /* ACL_MASK r-x */
	0x20, 0, 5, 0, 0xff, 0xff, 0xff, 0xff, /* ACL_OTHER r-x */
};

/* tree/bin: suid, sgid (an euid printer each), hl and ../hl2 (one file),
 * attrs (user.note and the ACL). */
static int lay_out_identity(void)
{
	char path[PATH_MAX + 32];
	FILE *src;

	snprintf(path, sizeof path, "%s/tree/e.c", work);
	if (!(src = fopen(path, "w")))
		return -1;
	fputs("#include <stdio.h>\n#include <unistd.h>\n"
	      "int main(void) { printf(\"euid=%u\\n\", (unsigned)geteuid()); return 0; }\n",
	      src);
	if (fclose(src) != 0 ||
	    e2e_sh("cd '%s/tree' && mkdir bin && '%s' -o bin/suid e.c && rm e.c && patchelf "
		   "--add-needed %s bin/suid && cp bin/suid bin/sgid && cp bin/suid bin/hl && "
		   "ln bin/hl hl2 && cp bin/suid bin/attrs && chown -R %d:%d . && "
		   "chmod 4755 bin/suid && chmod 2755 bin/sgid",
		   work, E2E_CC, E2E_CUDART_NEEDED, E2E_OWNER, E2E_GROUP) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/tree/bin/attrs", work);
	if (setxattr(path, "user.note", "kept", 4, 0) != 0 ||
	    setxattr(path, "system.posix_acl_access", acl, sizeof acl, 0) != 0)
		return -1;
	return e2e_sh("cp -a '%s/tree' '%s/tree.orig'", work, work);
}

/* Whether tree/<rel> has the owner's uid and gid and mode. */
static int identity(const char *rel, mode_t mode)
{
	char path[PATH_MAX + 32];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", work, rel);
	if (stat(path, &st) != 0)
		return 0;
	if (st.st_uid != E2E_OWNER || st.st_gid != E2E_GROUP || (st.st_mode & 07777) != mode)
		fprintf(stderr, "%s: %u:%u %04o, not %d:%d %04o\n", rel, (unsigned)st.st_uid,
			(unsigned)st.st_gid, (unsigned)(st.st_mode & 07777), E2E_OWNER, E2E_GROUP,
			(unsigned)mode);
	return st.st_uid == E2E_OWNER && st.st_gid == E2E_GROUP && (st.st_mode & 07777) == mode;
}

/* Whether the attributes of tree/bin/attrs are the original's. */
static int attributes_kept(const char *tree)
{
	char path[PATH_MAX + 32], note[16] = "", got[sizeof acl + 16];
	ssize_t n;

	snprintf(path, sizeof path, "%s/%s/bin/attrs", work, tree);
	n = getxattr(path, "user.note", note, sizeof note - 1);
	if (n != 4 || strcmp(note, "kept"))
		return 0;
	n = getxattr(path, "system.posix_acl_access", got, sizeof got);
	return n == (ssize_t)sizeof acl && !memcmp(got, acl, sizeof acl);
}

/* The set-user-ID program run by nobody, its stub found where the dynamic
 * loader looks for a set-user-ID program (a system folder: $ORIGIN is
 * ignored there), through an overlay in a mount namespace of its own.
 * Its output, or NULL after a skip. */
static const char *run_as_nobody(const char *stubs, const char *prog)
{
	char *argv[] = {"/usr/bin/unshare",
			"-m",
			"/bin/sh",
			"-c",
			"mount -t overlay overlay -o \"lowerdir=$0:/usr/lib/" TS_MULTIARCH
			"\" /usr/lib/" TS_MULTIARCH " && exec setpriv --reuid=65534 "
			"--regid=65534 --clear-groups \"$1\"",
			(char *)stubs,
			(char *)prog,
			NULL};
	static struct ts_child c;

	if (*E2E_SANITIZE) {
		ts_not_applicable("a sanitizer build's stub needs its runtime first");
		return NULL;
	}
	if (ts_run_program(argv, NULL, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "%s%s", c.out, c.err);
		ts_unavailable("an overlay mount in a mount namespace (unshare -m)");
		return NULL;
	}
	return c.out;
}

/* Root patches the owner's tree: identities kept, the file with two names
 * left alone with its other name, and the set-user-ID program never
 * root's. The baseline: patchelf in place on a copy of the tree. */
static void keeps_identity(void)
{
	char tree[PATH_MAX + 16], stubs[PATH_MAX + 32], prog[PATH_MAX + 32];
	const char *said;

	if (lay_out("patch-identity") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(lay_out_identity(), 0);
	snprintf(tree, sizeof tree, "%s/tree", work);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, tree, NULL), 1); /* the hard link */
	CU_ASSERT(identity("tree/bin/suid", 04755) && patched("tree/bin/suid"));
	CU_ASSERT(identity("tree/bin/sgid", 02755) && patched("tree/bin/sgid"));
	CU_ASSERT(identity("tree/bin/attrs", 0755) && attributes_kept("tree"));
	CU_ASSERT_EQUAL(e2e_sh("cd '%s' && [ \"$(stat -c %%i tree/bin/hl)\" = \"$(stat -c %%i "
			       "tree/hl2)\" ] && [ \"$(stat -c %%h tree/hl2)\" = 2 ] && "
			       "cmp -s tree/bin/hl tree.orig/bin/hl",
			       work),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "bin/hl: left alone"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "tree/hl2"));
	snprintf(stubs, sizeof stubs, "%s/tree/lib/cudastub", work);
	snprintf(prog, sizeof prog, "%s/tree/bin/suid", work);
	if ((said = run_as_nobody(stubs, prog))) {
		CU_ASSERT_PTR_NULL(strstr(said, "euid=0\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(said, "euid=4242"));
		printf("\n  the set-user-ID program run by nobody: %s", said);
	}
	/* the baseline: patchelf writes each file in place */
	CU_ASSERT_EQUAL(e2e_sh("cd '%s/tree.orig/bin' && for f in suid sgid hl attrs; do "
			       "patchelf --replace-needed %s libcudart_stub.so $f && "
			       "patchelf --set-rpath '$ORIGIN/../lib/cudastub' $f || exit 1; done",
			       work, E2E_CUDART_NEEDED),
			0);
	printf("\n  baseline patchelf: set-user-ID %s, set-group-ID %s, attributes %s, hard "
	       "link %s",
	       identity("tree.orig/bin/suid", 04755) ? "kept" : "LOST",
	       identity("tree.orig/bin/sgid", 02755) ? "kept" : "LOST",
	       attributes_kept("tree.orig") ? "kept" : "LOST",
	       e2e_sh("cmp -s '%s/tree.orig/bin/hl' '%s/tree.orig/hl2'", work, work) == 0
		       ? "both names patched"
		       : "SPLIT");
	ts_remove_tree(work);
}

TS_TEST(keeps_identity, "owner, group, set-ID bits, attributes, ACL kept; hard link left alone");

/* A run that may not give the copy its owner (uid 4244, not root, whose
 * folder it is) over the owner's set-user-ID, set-group-ID program: the
 * copy is 4244's without either bit, and the output says so. */
static void owner_not_kept_drops_set_id(void)
{
	char prog[PATH_MAX + 32];
	char *argv[] = {"/usr/bin/setpriv",	 "--reuid=4244", "--regid=4244", "--clear-groups",
			(char *)e2e_patch_cli(), "patch",	 prog,		 NULL};
	struct stat st;

	if (lay_out("patch-not-owner") != 0)
		return;
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	CU_ASSERT_EQUAL_FATAL(e2e_sh("chmod 6755 '%s' && chown 4244:4244 '%s/tree'", prog, work),
			      0);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &out) == 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT(stat(prog, &st) == 0 && st.st_uid == 4244 && (st.st_mode & 07777) == 0755);
	CU_ASSERT(patched("tree/prog"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "without its set-user-ID bit"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "its set-group-ID bit is dropped"));
	if (out.exit_code || !strstr(out.out, "set-user-ID"))
		fprintf(stderr, "%s%s", out.out, out.err);
	ts_remove_tree(work);
}

TS_TEST(owner_not_kept_drops_set_id, "an owner that cannot be kept: set-ID bits dropped, and said");

/* File capabilities go, as patchelf loses them, and the output says so. */
static void capabilities_dropped_and_said(void)
{
	char prog[PATH_MAX + 32];

	if (!ts_present("/usr/sbin/setcap", "apt-get install libcap2-bin") ||
	    lay_out("patch-caps") != 0)
		return;
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cp -p '%s' '%s.base' && /usr/sbin/setcap cap_net_raw=ep "
				     "'%s' && /usr/sbin/setcap cap_net_raw=ep '%s.base'",
				     prog, prog, prog, prog),
			      0);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, prog, NULL), 0);
	CU_ASSERT(patched("tree/prog"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "file capabilities (security.capability) are not "
					       "carried over"));
	CU_ASSERT_EQUAL(e2e_sh("[ -z \"$(/usr/sbin/getcap '%s')\" ]", prog), 0);
	/* patchelf writes the file in place, and the kernel drops them */
	CU_ASSERT_EQUAL(e2e_sh("patchelf --set-rpath '$ORIGIN' '%s.base' && "
			       "[ -z \"$(/usr/sbin/getcap '%s.base')\" ]",
			       prog, prog),
			0);
	printf("\n  file capabilities: dropped and said; baseline patchelf: dropped silently");
	ts_remove_tree(work);
}

TS_TEST(capabilities_dropped_and_said, "file capabilities: dropped, as by patchelf, and said");

/* Without /proc there is no name patchelf can be given that no one else
 * can change: the command refuses and changes nothing. */
static void refuses_without_proc(void)
{
	char prog[PATH_MAX + 32], saved[PATH_MAX + 32];
	char *argv[] = {"/usr/bin/unshare",
			"-m",
			"/bin/sh",
			"-c",
			"mount -t tmpfs none /proc && exec \"$0\" patch \"$1\"",
			(char *)e2e_patch_cli(),
			prog,
			NULL};

	if (!ts_present("/usr/bin/unshare", "apt-get install util-linux") ||
	    lay_out("patch-noproc") != 0)
		return;
	snprintf(prog, sizeof prog, "%s/tree/prog", work);
	snprintf(saved, sizeof saved, "%s/prog.orig", work);
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cp '%s' '%s'", prog, saved), 0);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &out) == 0);
	CU_ASSERT_EQUAL(out.exit_code, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "/proc is not mounted"));
	CU_ASSERT(e2e_same_bytes(prog, saved));
	ts_remove_tree(work);
}

TS_TEST(refuses_without_proc, "no /proc: refused, nothing changed");

TS_MAIN_SUITE("e2e: cudastub patch, root over another user's tree", NULL, NULL, NULL)
