/* The suites of e2e_cli, one file each. */
#ifndef CUDASTUB_E2E_CLI_SUITES_H
#define CUDASTUB_E2E_CLI_SUITES_H

void register_cli_usage(void);	     /* test_cli_usage.c */
void register_cli_info(void);	     /* test_cli_info.c */
void register_cli_info_select(void); /* test_cli_info_select.c */
void register_cli_escaping(void);    /* test_cli_escaping.c */
void register_cli_install(void);     /* test_cli_install.c */
void register_cli_patch(void);	     /* test_cli_patch.c */

#endif
