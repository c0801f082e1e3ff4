/*
 * Running the cudastub command under test (E2E_CLI, the build tree's
 * binary) and reading its JSON report.
 */
#ifndef CUDASTUB_E2E_CLI_RUN_H
#define CUDASTUB_E2E_CLI_RUN_H

#include "json_parse.h"
#include "json_tool.h"
#include "test_support.h"

/* The real NVRTC of the toolkit on the test machines. */
#define E2E_REAL_NVRTC "/usr/local/cuda/lib64/libnvrtc.so.13"

/* Runs `cudastub args...` (args NULL-terminated) with env as for
 * ts_run_program. Returns 0 if it ran. */
int cli_run(const char *cli, const char *const *args, const char *const *env, struct ts_child *out);

/*
 * Runs `cli info --json` with env, asserts that it exits 0 and that
 * python3 -m json.tool accepts its output, and returns the parsed
 * document (NULL after a failed assertion). out keeps the raw text.
 */
struct jv *cli_info_json_at(const char *cli, const char *const *env, struct ts_child *out);
#define cli_info_json(env, out) cli_info_json_at(E2E_CLI, env, out)

/* Runs `cli args...` (a JSON report: info --json ...), asserts that it
 * exits exit_code (CLI_EXIT_FOUND_OR_NOT: 0 or 1, where the test asks
 * about something else than whether the library is here) and prints JSON that python3 -m json.tool
 * accepts, and returns the parsed document (NULL after a failed assertion). */
enum { CLI_EXIT_FOUND_OR_NOT = -1 };
struct jv *cli_json_run(const char *cli, const char *const *args, const char *const *env,
			int exit_code, struct ts_child *out);

/* The real NVRTC, or NULL with a SKIP (CI: a failure) when absent. */
const char *cli_real_nvrtc(void);
/* An environment that points the NVRTC stub at it (CUDASTUB_NVRTC_PATH),
 * NULL-ended, in static storage; NULL as cli_real_nvrtc. */
const char *const *cli_real_nvrtc_env(void);

/* The raw text of the "libraries" entry named name: from its "name" key
 * to the next entry's. Static buffer; empty when there is none. */
const char *cli_raw_entry(const char *json, const char *name);

/* Whether the text report's table row starting with name holds each word,
 * in order, whatever width the other rows give the columns. */
int cli_text_row_has(const char *text, const char *name, const char *state, const char *version);

#endif
