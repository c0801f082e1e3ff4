# The library fixtures of the target's architecture: x86-64's by their
# names, aarch64's as arm64-<name> (tests/fixtures/fetch.sh), each in its
# Debian multiarch folder (tests/support/test_support.h says the same to
# C). The CUDA 13.0 libraries are the local toolkit's, which is x86-64's:
# for aarch64 this machine has none (Debian ships no 13.0), so those cells
# say N/A unless CUDASTUB_REAL_NVRTC13 and CUDASTUB_REAL_CUDART13 name some.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64|ARM64")
  set(CUDASTUB_FIXTURE_PREFIX arm64-)
  set(CUDASTUB_MULTIARCH aarch64-linux-gnu)
  set(CUDASTUB_TOOLKIT13_LIBDIR "")
  set(CUDASTUB_TOOLKIT13_NVRTC13 "")
  set(CUDASTUB_TOOLKIT13_CUDART13 "")
else()
  set(CUDASTUB_FIXTURE_PREFIX "")
  set(CUDASTUB_MULTIARCH x86_64-linux-gnu)
  set(CUDASTUB_TOOLKIT13_LIBDIR /usr/local/cuda/lib64)
  set(CUDASTUB_TOOLKIT13_NVRTC13 /usr/local/cuda/lib64/libnvrtc.so.13)
  set(CUDASTUB_TOOLKIT13_CUDART13 /usr/local/cuda/lib64/libcudart.so.13)
endif()
