# cudastub_select(): what this build makes, from the generated list of
# libraries (generated/cmake/libraries.cmake, read here into the caller's
# scope) and the cache variables:
#   CUDASTUB_ABIS       the CUDA ABIs (majors) to build; empty: every one
#                       the records hold (cudastub_recorded_abis)
#   CUDASTUB_LIBRARIES  the libraries (the generator read it already: the
#                       others have no ABI lines)
#   CUDASTUB_ABI        the ABI of the unsuffixed targets (cudastub::cudart):
#                       by default the major of the CUDA the project builds
#                       with (CUDAToolkit_VERSION_MAJOR, found here if a
#                       parent has not looked), else the newest
# Sets
#   cudastub_abis                 the ABIs built, oldest first
#   cudastub_built_libraries      the libraries built (cudastub_libraries'
#                                 names: cudart, nvrtc, cuda, ...)
#   cudastub_<lib>_built_abis     the ABIs built of each
#   cudastub_<lib>_skipped        for a library left out, why
# and prints one line a library.
include(CudastubNames)

macro(cudastub_select)
  include(${CUDASTUB_GENERATED}/cmake/libraries.cmake)
  set(cudastub_abis ${cudastub_recorded_abis})
  if(CUDASTUB_ABIS)
    set(cudastub_abis)
    foreach(_abi IN LISTS CUDASTUB_ABIS)
      if(NOT _abi IN_LIST cudastub_recorded_abis)
        list(JOIN cudastub_recorded_abis ", " _known)
        message(FATAL_ERROR "cudastub: CUDASTUB_ABIS names ${_abi}, and cudastub's records "
          "hold the CUDA ABIs ${_known} (data/abi).")
      endif()
      list(APPEND cudastub_abis ${_abi})
    endforeach()
    list(SORT cudastub_abis COMPARE NATURAL)
  endif()
  # the CUDA this project builds with, when there is one: its major is
  # the default ABI, and its headers go with that ABI's targets
  if(NOT DEFINED CUDAToolkit_VERSION_MAJOR)
    find_package(CUDAToolkit QUIET)
  endif()
  list(GET cudastub_abis -1 _newest)
  set(_default ${_newest})
  if(CUDAToolkit_VERSION_MAJOR AND CUDAToolkit_VERSION_MAJOR IN_LIST cudastub_abis)
    set(_default ${CUDAToolkit_VERSION_MAJOR})
  endif()
  set(CUDASTUB_ABI ${_default} CACHE STRING
    "The CUDA ABI of the unsuffixed targets (cudastub::cudart)")
  if(NOT CUDASTUB_ABI IN_LIST cudastub_abis)
    message(FATAL_ERROR "cudastub: CUDASTUB_ABI is ${CUDASTUB_ABI}, which this build does "
      "not make (CUDASTUB_ABIS: ${cudastub_abis}).")
  endif()
  set(cudastub_built_libraries)
  foreach(_lib IN LISTS cudastub_libraries)
    set(cudastub_${_lib}_built_abis)
    foreach(_abi IN LISTS cudastub_${_lib}_abis)
      if(_abi IN_LIST cudastub_abis)
        list(APPEND cudastub_${_lib}_built_abis ${_abi})
      endif()
    endforeach()
    if(cudastub_${_lib}_built_abis)
      list(APPEND cudastub_built_libraries ${_lib})
      list(JOIN cudastub_${_lib}_built_abis ", " _abis)
      message(STATUS "cudastub: ${cudastub_${_lib}_alias}: CUDA ${_abis}")
    else()
      if(NOT DEFINED cudastub_${_lib}_abis)
        set(cudastub_${_lib}_skipped "it is not in CUDASTUB_LIBRARIES")
      else()
        list(JOIN cudastub_${_lib}_abis ", " _abis)
        set(cudastub_${_lib}_skipped "its stubs serve the CUDA ABIs ${_abis}, none of "
          "CUDASTUB_ABIS")
        string(CONCAT cudastub_${_lib}_skipped ${cudastub_${_lib}_skipped})
      endif()
      message(STATUS "cudastub: ${cudastub_${_lib}_alias}: skipped, "
        "${cudastub_${_lib}_skipped}")
    endif()
  endforeach()
  unset(_abi)
  unset(_abis)
  unset(_lib)
  unset(_known)
  unset(_newest)
  unset(_default)
endmacro()
