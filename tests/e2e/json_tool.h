/* Checking JSON with an outside tool: Python's json module. */
#ifndef CUDASTUB_E2E_JSON_TOOL_H
#define CUDASTUB_E2E_JSON_TOOL_H

struct ts_child;

/* Exit code of `/usr/bin/python3 -m json.tool` on text (0: valid JSON),
 * or -1 when it could not run. On failure its stderr is printed. */
int e2e_json_tool(const char *text);

/* Every string value of the JSON document text as Python's json.load
 * decodes it, one a line (UTF-8), in strings: what an outside reader gets
 * back. A string holding a line break would read as two. Returns 0 when
 * Python read the document. */
int e2e_json_strings(const char *text, struct ts_child *strings);

#endif
