/* Checking JSON with an outside tool: python3 -m json.tool. */
#ifndef CUDASTUB_E2E_JSON_TOOL_H
#define CUDASTUB_E2E_JSON_TOOL_H

/* Exit code of `/usr/bin/python3 -m json.tool` on text (0: valid JSON),
 * or -1 when it could not run. On failure its stderr is printed. */
int e2e_json_tool(const char *text);

#endif
