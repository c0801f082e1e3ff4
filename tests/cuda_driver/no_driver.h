/*
 * The driver stub without a driver: CUDASTUB_CUDA_PATH=/nonexistent, or a
 * search that finds nothing. The parent (no_driver_main.c) runs the stub
 * and the shim both ways; the children (no_driver_child.c) open the
 * library under test by path (CD_LIB):
 *
 *   every_export  each name of cuda.symbols, called once with zero
 *                 arguments (CD_SYMBOLS, CD_ABI: its return type)
 *   probes        cuDriverGetVersion and cuDeviceGetCount on outputs
 *                 preset to 7, and with NULL; then the stub's info
 *   errors        cuGetErrorName/String for every CUresult of the build
 *                 headers (CD_ABI), unknown codes, and the stub's own 34
 */
#ifndef CUDASTUB_CD_NO_DRIVER_H
#define CUDASTUB_CD_NO_DRIVER_H

#include "cuda_driver_test.h"

extern const struct ts_scenario nd_scenarios[];

#endif
