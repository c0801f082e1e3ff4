/*
 * The info report as JSON:
 *   {"cudastub_version": "0.1.0",
 *    "libraries": [{"name", "state", "path", "major", "minor", "source",
 *                   "abi_major", "abi_minor", "error",
 *                   "tried": [{"source", "major", "path", "outcome"}],
 *                   "tried_dropped", "dlopen_calls",
 *                   "driver_version", "choice", "own_version",
 *                   "reason", "driver_missing", "stub_path"}]}
 * States and sources are the strings of cudastub_state_name() and
 * cudastub_source_name(); path and error are null when there is none.
 * driver_version is the CUDA version the driver reported (12040), or 0;
 * choice is why a major was preferred, or null; own_version is the
 * version of a library versioned apart from CUDA ("11.2.1"), or null.
 * reason is the one fact that ordered the majors, a string of
 * cudastub_release_reason_name() ("override", "pin", "in process",
 * "driver", "nothing answered"; "none" before a search, and for the
 * driver's own stub); driver_missing is why the driver answered no
 * version when it was asked, or null; stub_path is the stub file that
 * answered (this command's own, or --stub's), or null when not linked.
 * Every string is escaped text (cli.h), as the text report shows it: a
 * path holding U+009B decodes to the text \xc2\x9b (written "\\xc2\\x9b"
 * in the JSON), a backslash to \\.
 */
#include "cli.h"
#include "json.h"

static void write_attempt(struct json_writer *w, const cudastub_attempt *a)
{
	json_object_begin(w);
	json_member_string(w, "source", cudastub_source_name(a->source));
	json_member_int(w, "major", a->major);
	json_member_string(w, "path", a->path);
	json_member_string(w, "outcome", a->outcome);
	json_object_end(w);
}

static void write_library(struct json_writer *w, const struct cli_library *l)
{
	const cudastub_library_info *info = &l->info;

	json_object_begin(w);
	json_member_string(w, "name", l->name);
	json_member_string(w, "state", cudastub_state_name(info->state));
	json_member_string(w, "path", info->path);
	json_member_int(w, "major", info->major);
	json_member_int(w, "minor", info->minor);
	json_member_string(w, "source", cudastub_source_name(info->source));
	json_member_int(w, "abi_major", info->abi_major);
	json_member_int(w, "abi_minor", info->abi_minor);
	json_member_string(w, "error", info->state == CUDASTUB_STATE_LOADED ? NULL : info->error);
	json_key(w, "tried");
	json_array_begin(w);
	for (unsigned i = 0; info->attempts && i < info->attempt_count; i++)
		write_attempt(w, &info->attempts[i]);
	json_array_end(w);
	json_member_uint(w, "tried_dropped", info->attempts_dropped);
	json_member_uint(w, "dlopen_calls", info->dlopen_calls);
	json_member_int(w, "driver_version", info->driver_version);
	json_member_string(w, "choice", info->choice);
	json_member_string(w, "own_version", info->own_version);
	json_member_string(w, "reason", cudastub_release_reason_name(info->release_reason));
	json_member_string(w, "driver_missing", info->driver_missing);
	json_member_string(w, "stub_path", l->stub_path);
	json_object_end(w);
}

void cli_info_json(FILE *out, const struct cli_library *libs, int count)
{
	struct json_writer w;

	json_init(&w, out);
	json_object_begin(&w);
	json_key(&w, "cudastub_version");
	json_string(&w, CUDASTUB_CLI_VERSION);
	json_key(&w, "libraries");
	json_array_begin(&w);
	for (int i = 0; i < count; i++)
		write_library(&w, &libs[i]);
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
}
