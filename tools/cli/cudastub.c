/*
 * cudastub: the command-line tool of the cudastub stubs.
 *
 *   cudastub info [LIB...] [--stub PATH] [--json]
 *                            what each stub loads, from where, and why
 *   cudastub patch PATH...   point built ELF files at the stubs (patch.c)
 *   cudastub shim DIR        the drop-in shims, made from the stubs (shim.c)
 *   cudastub --help | --version
 *
 * Exit status: 0 on success (a report of every library that found nothing
 * included), 1 when a library info named was not found (info.c) or the
 * output could not be written, 2 on a usage error.
 */
#include "cli.h"
#include "patch.h"

#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"info", cli_info, "report what each stub loads, from where, and what it tried"},
	{"patch", cli_patch, "point built ELF files at the stubs instead of NVIDIA's libraries"},
	{"shim", cli_shim, "make the drop-in shims (the stubs under NVIDIA's SONAMEs) in a folder"},
	{NULL, NULL, NULL},
};

void cli_usage(FILE *out)
{
	fputs("Usage: cudastub <command> [options]\n"
	      "       cudastub --help | --version\n"
	      "\n"
	      "Commands:\n",
	      out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->summary);
	fputs("\n"
	      "Run 'cudastub <command> --help' for its options.\n"
	      "\n"
	      "Environment (LIB is",
	      out);
	/* the libraries' own words, from their override variables:
	 * CUDASTUB_CUFFT_PATH gives CUFFT */
	for (int i = 0, n = 0; i < CUDASTUB_LIB_COUNT; i++) {
		const char *env = cli_known_libraries[i].env_path;
		size_t len;

		if (!env)
			continue; /* a number no library has */
		len = strlen(env) - strlen("CUDASTUB_") - strlen("_PATH");
		fprintf(out, "%s%s%.*s", n ? "," : "", n % 6 == 5 ? "\n  " : " ", (int)len,
			env + strlen("CUDASTUB_"));
		n++;
	}
	fputs("):\n"
	      "  CUDASTUB_<LIB>_PATH   the library file, or its folder, to load\n"
	      "  CUDASTUB_<LIB>_MAJOR  search for this CUDA major only\n"
	      "  CUDASTUB_DEBUG=1      trace every search step on stderr\n",
	      out);
}

static void version(FILE *out)
{
	int abis[16], count = cli_stub_abis(abis, 16);

	fprintf(out, "cudastub %s\n", CUDASTUB_CLI_VERSION);
	if (!count) {
		fputs("stubs: none at hand\n", out);
		return;
	}
	fputs("stubs for the CUDA ABIs", out);
	for (int i = 0; i < count; i++)
		fprintf(out, "%s %d", i ? "," : "", abis[i]);
	cli_line(out, " in %s", cli_stub_folder());
}

/* what (a fixed text) and the argument it is about, escaped */
static int usage_error(const char *what, const char *arg)
{
	if (arg)
		cli_line(stderr, "cudastub: %s '%s'", what, arg);
	else
		cli_line(stderr, "cudastub: %s", what);
	fputc('\n', stderr);
	cli_usage(stderr);
	return CLI_EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("no command given", NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		cli_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version(stdout);
		return 0;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->run(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return usage_error("unknown option", argv[1]);
	return usage_error("unknown command", argv[1]);
}

int main(int argc, char **argv)
{
	int status = dispatch(argc, argv);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("cudastub: writing the output");
		return status ? status : 1;
	}
	return status;
}
