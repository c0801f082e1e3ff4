/*
 * cudastub info [LIB...] [--abi MAJOR] [--stub PATH] [--json]: make the
 * stubs run their search now, then report what each found.
 *
 * The stubs are this cudastub's of one CUDA ABI (--abi; the newest at
 * hand by default: stub_files.c). With no LIB, every library's; with LIB
 * names, only those, and only their libraries are loaded (each search
 * costs dlopen() calls, and a library loaded can change what the next one
 * prefers). With --stub, the stub file at PATH instead (info_stub.c).
 *
 * Exit status: 0 when the report ran and every library asked for (a LIB,
 * or --stub's) was loaded; 1 when one of them was not; 2 on a usage error
 * (an --stub file that cannot be opened or is not a cudastub stub
 * included). A report of every
 * library asks for none, so it exits 0 whatever it found.
 */
#include "cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void info_usage(FILE *out)
{
	fputs("Usage: cudastub info [LIB...] [--abi MAJOR] [--stub PATH] [--json]\n"
	      "\n"
	      "Loads the library behind every stub of one CUDA ABI, the way the\n"
	      "first call of a program would, and reports for each: its state, the\n"
	      "version and path loaded, the search step that found it, the reason\n"
	      "for the major it preferred, the ABI the stub was built for, and every\n"
	      "candidate the search tried.\n"
	      "\n"
	      "  LIB          report (and load) only these libraries, of:\n"
	      "              ",
	      out);
	for (int i = 0, n = 0; i < CUDASTUB_LIB_COUNT; i++)
		if (cli_known_libraries[i].name)
			fprintf(out, "%s%s", ++n % 6 ? " " : "\n               ",
				cli_known_libraries[i].name);
	fputs("\n"
	      "               (cuda_driver is cuda; any case)\n"
	      "  --abi MAJOR  the stubs of that CUDA ABI (11, 12, 13); default: the\n"
	      "               newest this cudastub has\n"
	      "  --stub PATH  ask the stub file at PATH (one shipped in a wheel, maybe\n"
	      "               renamed) instead of this command's own stubs; the file is\n"
	      "               loaded, and must be a cudastub stub\n"
	      "  --json       print the report as a JSON object\n"
	      "  -h, --help   show this help and exit\n"
	      "Options take their value as --stub PATH or --stub=PATH.\n"
	      "\n"
	      "Exit status: 0 when every LIB named (or the --stub file's library) was\n"
	      "loaded, or with neither, when the report ran; 1 when one was not found;\n"
	      "2 on a usage error, or when the --stub file cannot be opened or is not\n"
	      "a cudastub stub.\n",
	      out);
}

static int info_usage_error(const char *fmt, const char *arg)
{
	cli_line(stderr, fmt, arg);
	fputc('\n', stderr);
	info_usage(stderr);
	return CLI_EXIT_USAGE;
}

struct info_args {
	int json;
	int abi; /* 0: the newest at hand */
	const char *stub;
	cli_library_set wanted;
};

/* "13" as a CUDA ABI, or 0. */
static int abi_of(const char *text)
{
	char *end;
	long abi = strtol(text, &end, 10);

	return *text && !*end && abi > 0 && abi < 100 ? (int)abi : 0;
}

/* Returns -1 when parsed, else the exit status (help, or a usage error). */
static int parse(int argc, char **argv, struct info_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int lib;

		if (!strcmp(arg, "--json")) {
			a->json = 1;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			info_usage(stdout);
			return 0;
		} else if (!strcmp(arg, "--stub")) {
			if (++i == argc)
				return info_usage_error("cudastub info: %s needs a PATH", arg);
			a->stub = argv[i];
		} else if (!strncmp(arg, "--stub=", 7)) {
			a->stub = arg + 7;
		} else if (!strcmp(arg, "--abi") || !strncmp(arg, "--abi=", 6)) {
			const char *value = arg[5] == '=' ? arg + 6 : i + 1 < argc ? argv[++i] : "";

			if (!(a->abi = abi_of(value)))
				return info_usage_error(
					"cudastub info: --abi needs a CUDA major, not "
					"'%s'",
					value);
		} else if (arg[0] == '-') {
			return info_usage_error("cudastub info: unknown argument '%s'", arg);
		} else if ((lib = cli_library_by_name(arg)) >= 0) {
			a->wanted |= 1u << lib;
		} else {
			return info_usage_error("cudastub info: unknown library '%s'", arg);
		}
	}
	if (a->stub && !*a->stub)
		return info_usage_error("cudastub info: %s needs a PATH", "--stub");
	/* the file tells its own library; a name beside it would be ignored */
	if (a->stub && a->wanted)
		return info_usage_error("cudastub info: %s reports the file's own library; "
					"name no LIB with it",
					"--stub");
	return -1;
}

int cli_info(int argc, char **argv)
{
	struct cli_library libs[CUDASTUB_LIB_COUNT];
	struct info_args a = {0, 0, NULL, 0};
	void *stub = NULL;
	int count, status = parse(argc, argv, &a);

	if (status >= 0)
		return status;
	if (a.stub) {
		count = cli_collect_stub(libs, a.stub, &stub);
	} else {
		int abis[16], have = cli_stub_abis(abis, 16);

		if (!a.abi && have)
			a.abi = abis[0];
		if (!have)
			fputs("cudastub info: this cudastub has no stubs at hand (none in the lib/ "
			      "folder beside its bin/)\n",
			      stderr);
		count = cli_collect(libs, a.wanted, 1, a.abi);
	}
	if (count < 0) {
		fputc('\n', stderr);
		info_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (a.json)
		cli_info_json(stdout, libs, count);
	else
		cli_info_text(stdout, libs, count);
	/* asked for by name, or by --stub: each must have loaded */
	status = 0;
	for (int i = 0; (a.stub || a.wanted) && i < count; i++)
		if (libs[i].info.state != CUDASTUB_STATE_LOADED)
			status = CLI_EXIT_NOT_FOUND;
	cli_release(libs, count);
	/* the stub file stays loaded: the stubs never dlclose() what they load,
	 * and the file's library may still be in use by it */
	(void)stub;
	return status;
}
