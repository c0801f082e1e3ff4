/* e2e_cli: the cudastub command, run as a program. */
#include "cli_suites.h"
#include "test_support.h"

static void register_suites(void)
{
	register_cli_usage();
	register_cli_info();
	register_cli_info_select();
	register_cli_escaping();
	register_cli_install();
	register_cli_patch();
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}
