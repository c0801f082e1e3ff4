/*
 * A probe run given as data: struct ld_probe_case (loader_test.h), its
 * environment's placeholders filled in by ld_expand, its expectations
 * asserted one by one.
 */
#include "loader_test.h"

#include <stdio.h>
#include <string.h>

const char *ld_expand(const char *tree, const char *text)
{
	char out[4096], token[256];
	size_t n = 0;

	while (*text && n < sizeof out - 1) {
		const char *end = *text == '{' ? strchr(text, '}') : NULL;
		const char *with = NULL;

		if (!end || (size_t)(end - text) >= sizeof token) {
			out[n++] = *text++;
			continue;
		}
		snprintf(token, sizeof token, "%.*s", (int)(end - text - 1), text + 1);
		if (!strcmp(token, "tree"))
			with = tree;
		else if (!strncmp(token, "fake ", 5))
			with = ld_fake(token + 5);
		else if (!strncmp(token, "fakedir ", 8))
			with = ld_fake_dir(token + 8);
		if (!with) {
			out[n++] = *text++;
			continue;
		}
		n += (size_t)snprintf(out + n, sizeof out - n, "%s", with);
		if (n >= sizeof out)
			n = sizeof out - 1;
		text = end + 1;
	}
	out[n] = '\0';
	return ld_fmt("%s", out);
}

static void check(const struct ts_child *c, const struct ld_check *k, const char *tree)
{
	const char *key = ld_expand(tree, k->key), *text = ld_expand(tree, k->text);

	switch (k->kind) {
	case LD_IS: CU_ASSERT_TRUE(ld_is(c, key, text)); break;
	case LD_HAS: CU_ASSERT_TRUE(ld_has(c, key, text)); break;
	case LD_ATTEMPT: CU_ASSERT_TRUE(ld_attempt(c, key, text)); break;
	case LD_NO_ATTEMPT: CU_ASSERT_FALSE(ld_attempt(c, key, text)); break;
	}
}

void ld_run_probe_case(const struct ld_probe_case *pc, const char *tree)
{
	const struct ld_outcome *want = &pc->outcome;
	const char *env[LD_CASE_ENV + 1] = {NULL};
	struct ts_child c;

	for (int i = 0; i < LD_CASE_ENV && pc->env[i]; i++)
		env[i] = ld_expand(tree, pc->env[i]);
	if (ld_run_probe(env, &c))
		return;
	if (want->major) {
		LD_EXPECT_FAKE(&c, want->source, want->major, want->minor,
			       ld_fmt("fake-nvrtc-%d", want->major));
	} else if (want->state == CUDASTUB_STATE_NOT_FOUND) {
		LD_EXPECT_NOT_FOUND(&c);
	} else {
		CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
		CU_ASSERT_EQUAL(ld_long(&c, "state"), want->state);
	}
	for (int i = 0; i < LD_CASE_CHECKS && pc->checks[i].kind; i++)
		check(&c, &pc->checks[i], tree);
	for (const struct ld_check *k = pc->shared; k && k->kind; k++)
		check(&c, k, tree);
}
