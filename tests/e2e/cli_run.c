/* Helpers shared by the cudastub command's suites. */
#include "cli_run.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cli_run(const char *cli, const char *const *args, const char *const *env, struct ts_child *out)
{
	char *argv[16] = {(char *)cli};
	size_t n = 1;

	while (args && args[n - 1] && n < sizeof argv / sizeof *argv - 1) {
		argv[n] = (char *)args[n - 1];
		n++;
	}
	argv[n] = NULL;
	return ts_run_program(argv, env, NULL, out);
}

struct jv *cli_info_json_at(const char *cli, const char *const *env, struct ts_child *out)
{
	static const char *const args[] = {"info", "--json", NULL};

	return cli_json_run(cli, args, env, 0, out);
}

struct jv *cli_json_run(const char *cli, const char *const *args, const char *const *env,
			int exit_code, struct ts_child *out)
{
	struct jv *doc;

	CU_ASSERT_EQUAL_FATAL(cli_run(cli, args, env, out), 0);
	if (exit_code == CLI_EXIT_FOUND_OR_NOT && (out->exit_code == 0 || out->exit_code == 1))
		exit_code = out->exit_code;
	if (out->exit_code != exit_code)
		fprintf(stderr, "cudastub %s ... exited %d, not %d:\n%s\n%s\n", args[0],
			out->exit_code, exit_code, out->out, out->err);
	CU_ASSERT_EQUAL_FATAL(out->exit_code, exit_code);
	CU_ASSERT_EQUAL(e2e_json_tool(out->out), 0);
	doc = jv_parse(out->out);
	if (!doc)
		fprintf(stderr, "not JSON:\n%s\n", out->out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	return doc;
}

const char *cli_real_nvrtc(void)
{
	if (access(E2E_REAL_NVRTC, R_OK) == 0)
		return E2E_REAL_NVRTC;
	ts_unavailable(E2E_REAL_NVRTC " missing; install the CUDA 13 toolkit");
	return NULL;
}

const char *const *cli_real_nvrtc_env(void)
{
	static const char *const env[] = {"CUDASTUB_NVRTC_PATH=" E2E_REAL_NVRTC, NULL};

	return cli_real_nvrtc() ? env : NULL;
}

const char *cli_raw_entry(const char *json, const char *name)
{
	static char entry[16384];
	char key[128];
	const char *start, *end;
	size_t len;

	entry[0] = '\0';
	snprintf(key, sizeof key, "\"name\": \"%s\"", name);
	start = strstr(json, key);
	if (!start)
		return entry;
	end = strstr(start + 1, "\"name\": ");
	len = end ? (size_t)(end - start) : strlen(start);
	if (len >= sizeof entry)
		len = sizeof entry - 1;
	memcpy(entry, start, len);
	entry[len] = '\0';
	return entry;
}

/* True when the table row starting with name holds each word, in order. */
int cli_text_row_has(const char *text, const char *name, const char *state, const char *version)
{
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *s, *v;
		size_t len = strcspn(line, "\n");

		if (strncmp(line, name, strlen(name)) || line[strlen(name)] != ' ')
			continue;
		s = strstr(line, state);
		v = s ? strstr(s, version) : NULL;
		return s && v && (size_t)(v - line) < len;
	}
	return 0;
}
