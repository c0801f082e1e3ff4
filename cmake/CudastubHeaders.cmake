# Finds the CUDA headers the stubs are compiled against, and their version.
# Looks at CUDAToolkit_ROOT, then $CUDA_HOME, then /usr/local/cuda, then the
# system include folder (Debian's nvidia-cuda-dev). Sets:
#   CUDASTUB_CUDA_INCLUDE_DIR   folder holding cuda.h and nvrtc.h
#   CUDASTUB_ABI_MAJOR/MINOR    from CUDA_VERSION in cuda.h
function(cudastub_find_cuda_headers)
  set(hints)
  if(CUDAToolkit_ROOT)
    list(APPEND hints ${CUDAToolkit_ROOT}/include)
  endif()
  if(DEFINED ENV{CUDA_HOME})
    list(APPEND hints $ENV{CUDA_HOME}/include)
  endif()
  list(APPEND hints /usr/local/cuda/include /usr/include)
  set(found "")
  foreach(dir IN LISTS hints)
    if(EXISTS ${dir}/cuda.h AND EXISTS ${dir}/nvrtc.h)
      set(found ${dir})
      break()
    endif()
  endforeach()
  if(NOT found)
    string(REPLACE ";" ", " tried "${hints}")
    message(FATAL_ERROR
      "cudastub: no CUDA headers (cuda.h and nvrtc.h) in: ${tried}.\n"
      "Install the CUDA toolkit (or Debian's nvidia-cuda-dev), or point "
      "-DCUDAToolkit_ROOT=<prefix> or CUDA_HOME at one.")
  endif()
  file(STRINGS ${found}/cuda.h line REGEX "^#define CUDA_VERSION [0-9]+")
  string(REGEX MATCH "[0-9]+" version "${line}")
  math(EXPR major "${version} / 1000")
  math(EXPR minor "(${version} % 1000) / 10")
  set(CUDASTUB_CUDA_INCLUDE_DIR ${found} PARENT_SCOPE)
  set(CUDASTUB_ABI_MAJOR ${major} PARENT_SCOPE)
  set(CUDASTUB_ABI_MINOR ${minor} PARENT_SCOPE)
  message(STATUS "cudastub: CUDA ${major}.${minor} headers in ${found}")
endfunction()
