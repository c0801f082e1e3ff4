# cudastub_add_stub(<lib> SOURCES ... SHIM_SONAME <soname>)
#
# Builds lib<lib>_stub.so (target <lib>_stub, alias cudastub::<alias>) from
# the shared loader, the hand-written sources and the generated wrappers of
# the build headers' major. With CUDASTUB_BUILD_SHIMS, also builds the same
# code as shim/<soname>, whose symbols carry the real library's version node
# so that binaries linked against NVIDIA's library resolve against it.
function(cudastub_add_stub lib)
  cmake_parse_arguments(ARG "" "ALIAS;SHIM_SONAME" "SOURCES" ${ARGN})
  set(gen ${CMAKE_CURRENT_SOURCE_DIR}/generated/cuda-${CUDASTUB_ABI_MAJOR})
  if(NOT EXISTS ${gen}/${lib}_wrappers.c)
    message(FATAL_ERROR "cudastub: no generated ${lib} wrappers for CUDA "
      "${CUDASTUB_ABI_MAJOR} in ${gen}; run the regenerate target with "
      "that major's ABI record in tools/gen_stubs/data/abi/")
  endif()
  file(STRINGS ${gen}/${lib}.symbols symbols REGEX "^[A-Za-z_]")
  list(APPEND symbols cudastub_${lib}_info cudastub_${lib}_load)
  list(JOIN symbols ";\n    " exported)

  set(variants ${lib}_stub)
  if(CUDASTUB_BUILD_SHIMS AND ARG_SHIM_SONAME)
    list(APPEND variants ${lib}_shim)
  endif()
  foreach(target IN LISTS variants)
    if(target STREQUAL "${lib}_shim")
      set(node "${ARG_SHIM_SONAME} ")
    else()
      set(node "")
    endif()
    set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
    file(WRITE ${map} "${node}{\n  global:\n    ${exported};\n  local: *;\n};\n")
    add_library(${target} SHARED ${ARG_SOURCES} ${gen}/${lib}_wrappers.c)
    target_include_directories(${target} PRIVATE
      ${CMAKE_CURRENT_SOURCE_DIR} ${gen} ${PROJECT_SOURCE_DIR}/stubs/common)
    target_include_directories(${target} SYSTEM PRIVATE ${CUDASTUB_CUDA_INCLUDE_DIR})
    target_include_directories(${target} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
    # CUDASTUB_NO_UNIFIED_API: the weak references of cudastub.h are for
    # programs; inside a stub they would make its own definitions weak.
    target_compile_definitions(${target} PRIVATE CUDASTUB_NO_UNIFIED_API
      CUDASTUB_ABI_MAJOR=${CUDASTUB_ABI_MAJOR} CUDASTUB_ABI_MINOR=${CUDASTUB_ABI_MINOR})
    target_link_libraries(${target} PRIVATE cudastub_loader ${CMAKE_DL_LIBS} Threads::Threads)
    set_target_properties(${target} PROPERTIES
      C_VISIBILITY_PRESET hidden
      LINK_DEPENDS ${map})
    target_link_options(${target} PRIVATE
      -Wl,--version-script=${map} -Wl,-z,defs -Wl,-z,now)
  endforeach()
  set_target_properties(${lib}_stub PROPERTIES OUTPUT_NAME ${lib}_stub)
  add_library(cudastub::${ARG_ALIAS} ALIAS ${lib}_stub)
  install(TARGETS ${lib}_stub EXPORT cudastubTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  if(TARGET ${lib}_shim)
    # lib<x>.so.N: the file name is the SONAME, with no symlink chain
    string(REGEX REPLACE "^lib(.*)\\.so\\..*$" "\\1" base ${ARG_SHIM_SONAME})
    string(REGEX REPLACE "^lib.*\\.so\\.(.*)$" "\\1" suffix ${ARG_SHIM_SONAME})
    set_target_properties(${lib}_shim PROPERTIES
      OUTPUT_NAME ${base}
      SUFFIX .so.${suffix}
      NO_SONAME OFF
      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/shim)
    target_link_options(${lib}_shim PRIVATE -Wl,-soname,${ARG_SHIM_SONAME})
    install(TARGETS ${lib}_shim LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudastub/shim)
  endif()
endfunction()
