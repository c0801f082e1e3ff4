# cudastub_link(<target> [STUB_DIR <dir>] [DESTINATION <dir>])
#
# Makes an existing target use the cudastub stubs where it used NVIDIA's
# libraries, whatever form they were named in and whether they were named
# before or after this call: FindCUDAToolkit's targets (CUDA::cudart,
# CUDA::nvrtc, CUDA::cuda_driver, CUDA::cublas, ...), paths to NVIDIA's
# files (what the legacy find_package(CUDA) variables and find_library()
# give) and bare names (cudart, -lcuda) among its link libraries, and those
# it passes on, become the stubs (CudastubSwap.cmake says how each is
# recognised and which ABI's stub it gets). A target with CUDA sources gets
# CUDA_RUNTIME_LIBRARY None and the runtime stub in place of the runtime
# nvcc would link. The swap is made at once and again when the top-level
# directory has been read, so that links added later are swapped too;
# then a library the target still reaches (through a project target it
# links, or one this cudastub has no stub for) stops the configuration
# with a sentence naming the target and the library.
#
# The installed target finds the stubs through an $ORIGIN-relative
# RUNPATH: STUB_DIR is where they are installed relative to the target
# ("." beside it, the default; "../lib"). DESTINATION is where the project
# installs the target (as its install(TARGETS) says, "bin"): then the stubs
# it links are installed into DESTINATION/STUB_DIR too, so the RUNPATH
# finds them; without it, installing them is the project's.
#
# Available after find_package(cudastub), add_subdirectory() or
# FetchContent of cudastub.
include(${CMAKE_CURRENT_LIST_DIR}/CudastubSwap.cmake)

# the list of libraries, generated from the specs: in a build of cudastub's
# own (add_subdirectory, FetchContent) generated/cmake/libraries.cmake,
# installed CudastubLibraries.cmake beside this file (a project that adds
# cudastub sees none of cudastub's variables)
macro(_cudastub_read_libraries)
  if(EXISTS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CudastubLibraries.cmake)
    include(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CudastubLibraries.cmake)
  else()
    include(${CUDASTUB_GENERATED}/cmake/libraries.cmake)
  endif()
endmacro()

# The ABI of the stubs a target gets: the consumer's (find_package's
# cudastub_ABI), else the CUDA it found, else the build's own.
macro(_cudastub_link_abi out)
  if(cudastub_ABI)
    set(${out} ${cudastub_ABI})
  elseif(CUDAToolkit_VERSION_MAJOR)
    set(${out} ${CUDAToolkit_VERSION_MAJOR})
  elseif(CUDA_VERSION_MAJOR)
    set(${out} ${CUDA_VERSION_MAJOR})
  else()
    set(${out} "")
  endif()
endmacro()

# At the end of the top-level directory: swap again (links added after
# cudastub_link), and refuse what still reaches NVIDIA's libraries.
# With DESTINATION, the stubs it links then are installed where its
# RUNPATH looks.
function(_cudastub_link_finish target stub_dir destination)
  _cudastub_read_libraries()
  _cudastub_link_abi(abi)
  cudastub_swap_links(${target} "${abi}" stubs left)
  if(destination)
    set(files)
    foreach(stub IN LISTS stubs)
      if(TARGET ${stub})
        list(APPEND files "$<TARGET_FILE:${stub}>")
      endif()
    endforeach()
    if(files)
      install(FILES ${files} DESTINATION "${destination}/${stub_dir}")
    endif()
  endif()
  cudastub_nvidia_links(${target} through)
  list(APPEND left ${through})
  if(left)
    list(JOIN left ", " left)
    message(FATAL_ERROR "cudastub_link: ${target} still links NVIDIA's ${left}, which "
      "cudastub cannot replace there: call cudastub_link() on that target as well, or build "
      "cudastub with that library's stub.")
  endif()
endfunction()

function(cudastub_link target)
  cmake_parse_arguments(ARG "" "STUB_DIR;DESTINATION" "" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "cudastub_link: no target named ${target}")
  endif()
  if(NOT ARG_STUB_DIR)
    set(ARG_STUB_DIR .)
  endif()
  _cudastub_read_libraries()
  _cudastub_link_abi(abi)
  cudastub_swap_links(${target} "${abi}" stubs left)
  if(ARG_STUB_DIR STREQUAL ".")
    set(runpath "$ORIGIN")
  else()
    set(runpath "$ORIGIN/${ARG_STUB_DIR}")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${runpath}")
  # the values written into the call now (a deferred call's arguments are
  # read when it runs, in the top-level directory's scope)
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL
    _cudastub_link_finish [[${target}]] [[${ARG_STUB_DIR}]] [[${ARG_DESTINATION}]])")
endfunction()
