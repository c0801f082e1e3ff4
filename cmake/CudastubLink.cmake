# cudastub_link(<target> [STUB_DIR <dir>] [DESTINATION <dir>])
#
# Makes an existing target use the cudastub stubs where it used NVIDIA's
# libraries: each of FindCUDAToolkit's targets a stub stands in for
# (CUDA::cudart, CUDA::cudart_static, CUDA::nvrtc, CUDA::cuda_driver,
# CUDA::cublas, ...: each spec's toolkit_targets) among its link libraries
# (and those it passes on) is replaced by that stub's target
# (cudastub::cudart, cudastub::nvrtc, cudastub::cuda_driver, ...).
# A CUDA-language target gets CUDA_RUNTIME_LIBRARY None, so nvcc links
# neither its static runtime nor -lcudart, and links cudastub::cudart
# instead, whether it named CUDA::cudart or left the runtime to CMake (its
# default for .cu sources). The installed target finds the stubs through an
# $ORIGIN-relative RUNPATH: STUB_DIR is where they are installed relative to
# the target ("." beside it, the default; "../lib"). DESTINATION is where
# the project installs the target (as its install(TARGETS) says, "bin"):
# then the stubs it links are installed into DESTINATION/STUB_DIR too, so
# the RUNPATH finds them; without it, installing them is the project's.
#
# Available after find_package(cudastub), add_subdirectory() or
# FetchContent of cudastub.
function(cudastub_link target)
  cmake_parse_arguments(ARG "" "STUB_DIR;DESTINATION" "" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "cudastub_link: no target named ${target}")
  endif()
  if(NOT ARG_STUB_DIR)
    set(ARG_STUB_DIR .)
  endif()
  # the list of libraries, generated from the specs: in a build of
  # cudastub's own (add_subdirectory, FetchContent) generated/cmake/
  # libraries.cmake, installed CudastubLibraries.cmake beside this file (a
  # project that adds cudastub sees none of cudastub's variables)
  if(EXISTS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CudastubLibraries.cmake)
    include(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CudastubLibraries.cmake)
  else()
    include(${CUDASTUB_GENERATED}/cmake/libraries.cmake)
  endif()
  set(nvidia)
  set(stubs)
  foreach(lib IN LISTS cudastub_libraries)
    # a stub this build of cudastub did not make (CUDASTUB_LIBRARIES or
    # CUDASTUB_ABIS left it out) replaces nothing: NVIDIA's library stays
    if(NOT TARGET cudastub::${cudastub_${lib}_alias})
      continue()
    endif()
    foreach(toolkit_target IN LISTS cudastub_${lib}_toolkit_targets)
      list(APPEND nvidia ${toolkit_target})
      list(APPEND stubs cudastub::${cudastub_${lib}_alias})
    endforeach()
  endforeach()
  foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(libs ${target} ${property})
    if(NOT libs)
      continue()
    endif()
    set(out)
    foreach(lib IN LISTS libs)
      list(FIND nvidia "${lib}" at)
      if(at GREATER_EQUAL 0)
        list(GET stubs ${at} lib)
      endif()
      list(APPEND out "${lib}")
    endforeach()
    set_property(TARGET ${target} PROPERTY ${property} "${out}")
  endforeach()
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cu$")
      # the runtime nvcc's code calls, in place of the one CMake would add
      if(NOT TARGET cudastub::cudart)
        message(FATAL_ERROR "cudastub_link: ${target} has CUDA sources, whose runtime "
          "is cudastub::cudart, and this cudastub was built without it.")
      endif()
      set_property(TARGET ${target} PROPERTY CUDA_RUNTIME_LIBRARY None)
      get_target_property(libs ${target} LINK_LIBRARIES)
      if(NOT "cudastub::cudart" IN_LIST libs)
        target_link_libraries(${target} PRIVATE cudastub::cudart)
      endif()
      break()
    endif()
  endforeach()
  if(ARG_STUB_DIR STREQUAL ".")
    set(runpath "$ORIGIN")
  else()
    set(runpath "$ORIGIN/${ARG_STUB_DIR}")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${runpath}")
  if(ARG_DESTINATION)
    get_target_property(libs ${target} LINK_LIBRARIES)
    set(files)
    foreach(lib IN LISTS libs)
      if(lib MATCHES "^cudastub::" AND TARGET ${lib})
        list(APPEND files "$<TARGET_FILE:${lib}>")
      endif()
    endforeach()
    if(files)
      install(FILES ${files} DESTINATION "${ARG_DESTINATION}/${ARG_STUB_DIR}")
    endif()
  endif()
endfunction()
