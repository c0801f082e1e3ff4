/*
 * What an e2e suite builds its programs with, as tests/e2e/CMakeLists.txt
 * passes it: E2E_NVCC, the nvcc found ("" without one), and E2E_SANITIZE,
 * the build's sanitizers ("" for none). A suite given neither builds with
 * no nvcc and no sanitizer.
 */
#ifndef CUDASTUB_TESTS_E2E_TOOLS_H
#define CUDASTUB_TESTS_E2E_TOOLS_H

#ifndef E2E_NVCC
#define E2E_NVCC ""
#endif
#ifndef E2E_SANITIZE
#define E2E_SANITIZE ""
#endif

#endif
