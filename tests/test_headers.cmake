# The NVIDIA headers the suites compile with, those of the build's ABI
# (CUDASTUB_ABI): the toolkit's for 13 (CUDAToolkit_ROOT, CUDA_HOME or
# /usr/local/cuda, if its cuda.h is 13's), the fetched 12.4 or 11.8 ones
# (tests/fixtures/fetch.sh) for 12 and 11. Sets
#   CUDASTUB_CUDA_INCLUDE_DIR   that folder, or "" (cudastub_test_headers_tried: where)
#   CUDASTUB_ABI_MAJOR/MINOR    the build's ABI and its runtime record's minor
#   CUDASTUB_TEST_HEADERS_13    the CUDA 13 headers, for the suites written
#                               against 13.0 whatever the build's ABI ("" if none)
#   CUDASTUB_NVML_INCLUDE_DIR   nvml.h, which no toolkit here ships: the
#                               fetched libnvidia-ml-dev's of the ABI's release
set(CUDASTUB_ABI_MAJOR ${CUDASTUB_ABI})
_cudastub_abi_minor(cudart ${CUDASTUB_ABI} CUDASTUB_ABI_MINOR)

# The folder of roots holding a CUDA <major> cuda.h, in out ("" if none).
function(cudastub_find_toolkit_headers major out)
  set(found "")
  foreach(root ${CUDAToolkit_ROOT} $ENV{CUDA_HOME} /usr/local/cuda)
    if(EXISTS ${root}/include/cuda.h)
      file(STRINGS ${root}/include/cuda.h line REGEX "^#define CUDA_VERSION [0-9]+")
      string(REGEX MATCH "[0-9]+$" version "${line}")
      math(EXPR found_major "${version} / 1000")
      if(found_major EQUAL major)
        set(found ${root}/include)
        break()
      endif()
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

cudastub_find_toolkit_headers(13 CUDASTUB_TEST_HEADERS_13)
set(release_11 11.8)
set(release_12 12.4)
set(CUDASTUB_CUDA_INCLUDE_DIR "")
set(cudastub_test_headers_tried "")
if(CUDASTUB_ABI EQUAL 13)
  set(CUDASTUB_CUDA_INCLUDE_DIR ${CUDASTUB_TEST_HEADERS_13})
  set(cudastub_test_headers_tried "CUDAToolkit_ROOT, CUDA_HOME, /usr/local/cuda")
elseif(release_${CUDASTUB_ABI})
  set(dir ${CUDASTUB_FIXTURES}/headers-${release_${CUDASTUB_ABI}}/usr/include)
  if(EXISTS ${dir}/cuda.h)
    set(CUDASTUB_CUDA_INCLUDE_DIR ${dir})
  endif()
  set(cudastub_test_headers_tried ${dir})
endif()
set(release_13 12.4) # no nvml.h of 13 here: the newest fetched
set(CUDASTUB_NVML_INCLUDE_DIR
  ${CUDASTUB_FIXTURES}/nvml-headers-${release_${CUDASTUB_ABI}}/usr/include)
