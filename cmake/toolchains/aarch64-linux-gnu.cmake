# Cross-compiles cudastub for aarch64 Linux with Debian's cross compiler
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross):
#
#   cmake -S . -B build-arm64 \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# The CUDA headers are the same on every architecture, so the stubs are
# built from the ones the native build would use. Libraries for the target
# that the cross root lacks (CUnit, for the tests) are found under the
# further roots in CUDASTUB_TARGET_ROOTS: tests/run-suite.sh passes the
# arm64 CUnit that tests/fixtures/fetch.sh unpacks (fixture arm64-cunit).
#
# With qemu-user (qemu-user-static), the tests run on this machine:
# CMAKE_CROSSCOMPILING_EMULATOR makes ctest start each test under it, and
# the suites start their child processes under it too.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)

# Debian's cross libc lives here, not under a multiarch folder of /usr.
set(CUDASTUB_TARGET_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH ${CUDASTUB_TARGET_SYSROOT} ${CUDASTUB_TARGET_ROOTS})
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CUDASTUB_TARGET_ROOTS)
# Programs (nm, python3, patchelf) are the build machine's; libraries and
# headers only the target's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(CUDASTUB_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(CUDASTUB_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CUDASTUB_QEMU_AARCH64} -L ${CUDASTUB_TARGET_SYSROOT})
endif()
