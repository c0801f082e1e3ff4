# How a stub is built, for every library and CUDA ABI (stubs/CMakeLists.txt).
#
# cudastub_stub_sources(<lib> SOURCES <file>... [INCLUDE_DIRS <dir>...])
#   A library's hand-written C (stubs/<folder>/CMakeLists.txt calls it);
#   a library its spec describes alone has none.
#
# cudastub_add_stub(<lib> <abi>)
#   <lib>'s stub for CUDA <abi>: its hand-written C and the generated files
#   of generated/<lib>/cu<abi>, compiled with CUDASTUB_ABI_MAJOR=<abi>,
#   linked with the loader into
#     lib/lib<lib>_stub_cu<abi>-<tag>.so   file name and SONAME, <tag> from
#                                          cudastub's version, the ABI and
#                                          the exports, so that no stub of
#                                          another build is taken for it
#     lib/lib<lib>_stub_cu<abi>.so         a link to it, for -l
#   (target <lib>_stub_cu<abi>, alias cudastub::<alias>_cu<abi>). Its symbols
#   carry the version node of the real library of that ABI, so that a
#   binary linked against NVIDIA's library and patched to the stub finds
#   every versioned reference defined. With CUDASTUB_BUILD_SHIMS also the
#   same objects as shim/cu<abi>[/driver]/<NVIDIA's SONAME> (target
#   <lib>_shim_cu<abi>), for binaries that load it in NVIDIA's place.

# cudastub_glibc_floor(<target>): the oldest glibc the target runs on is
# 2.17 (stubs/loader/platform/glibc_floor.h, force-included into its C files), and
# it names libc.so.6 alone: the dl functions, which glibc before 2.34 keeps
# in libdl.so.2, are found at run time (stubs/loader/platform/loader_dl.c), so the
# libraries linked for them (-ldl, the threads library) are dropped as not
# needed; naming those two files made every process that loads a stub map
# them at start-up.
function(cudastub_glibc_floor target)
  # A sanitizer's runtime intercepts the newest versions (its __xstat
  # crashed looking up the real one), and needs a newer glibc anyway.
  # (a parent project's own -fsanitize flags count too)
  if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR NOT CMAKE_C_COMPILER_ID MATCHES "GNU|Clang"
      OR CUDASTUB_SANITIZE OR CMAKE_C_FLAGS MATCHES "-fsanitize")
    return()
  endif()
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:C>:SHELL:-include ${PROJECT_SOURCE_DIR}/stubs/loader/platform/glibc_floor.h>")
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "OBJECT_LIBRARY")
    target_link_options(${target} PRIVATE "LINKER:--as-needed")
  endif()
endfunction()

# cudastub_link_like_a_stub(<target> <version script>): the loader linked
# in, and how every stub is linked.
function(cudastub_link_like_a_stub target map)
  target_link_libraries(${target} PRIVATE cudastub_loader ${CMAKE_DL_LIBS} Threads::Threads)
  cudastub_glibc_floor(${target})
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden LINK_DEPENDS ${map})
  # Imports are bound lazily, on the first call that needs them, not at
  # load: the stub's imports (dlopen, pthread, string functions) are used
  # only once a CUDA call searches, and binding them up front was most of
  # what loading a stub cost. RELRO stays for its tables; only its small
  # PLT part of the GOT stays writable, beside the slots, which a stub must
  # write by design.
  target_link_options(${target} PRIVATE
    -Wl,--version-script=${map} -Wl,-z,defs -Wl,-z,lazy -Wl,-z,relro)
endfunction()

# cudastub_install_stripped(<target> <destination> [<component>]): the
# installed copy loses its symbol table and debug information (a wheel
# ships it; the build tree keeps them), unless CUDASTUB_INSTALL_DEBUG_INFO
# is on. Its dynamic symbols stay: they are the exports.
function(cudastub_install_stripped target destination)
  if(CUDASTUB_INSTALL_DEBUG_INFO OR NOT CMAKE_STRIP)
    return()
  endif()
  set(component ${CMAKE_INSTALL_DEFAULT_COMPONENT_NAME})
  if(ARGC GREATER 2)
    set(component ${ARGV2})
  endif()
  if(NOT component)
    set(component Unspecified)
  endif()
  install(CODE "execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-unneeded
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${destination}/$<TARGET_FILE_NAME:${target}>\"
    COMMAND_ERROR_IS_FATAL ANY)" COMPONENT ${component})
endfunction()

function(cudastub_stub_sources lib)
  cmake_parse_arguments(ARG "" "" "SOURCES;INCLUDE_DIRS" ${ARGN})
  list(TRANSFORM ARG_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_SOURCES ${ARG_SOURCES})
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}
    ${ARG_INCLUDE_DIRS})
endfunction()

# The minor of the record <lib>'s stub for <abi> is built from, when that
# record is the ABI's own (0 when another major's record serves it).
function(_cudastub_abi_minor lib abi out)
  string(REPLACE "." ";" record "${cudastub_${lib}_cu${abi}_record}")
  list(GET record 0 major)
  list(GET record 1 minor)
  if(NOT major EQUAL abi)
    set(minor 0)
  endif()
  set(${out} ${minor} PARENT_SCOPE)
endfunction()

function(cudastub_add_stub lib abi)
  set(gen ${CUDASTUB_GENERATED}/${lib})
  set(target ${lib}_stub_cu${abi})
  set(tag ${cudastub_${lib}_cu${abi}_tag})
  get_property(sources GLOBAL PROPERTY CUDASTUB_${lib}_SOURCES)
  get_property(includes GLOBAL PROPERTY CUDASTUB_${lib}_INCLUDES)
  _cudastub_abi_minor(${lib} ${abi} minor)
  # the table (its rows, <lib>_rows.h, become slots and forwarders), the
  # other names and translated structs where the ABI has them, and what no
  # ABI changes: the structs translated, enums' values, and for a library
  # described by its spec alone, its description and probe
  list(APPEND sources ${gen}/cu${abi}/${lib}_table.c)
  if(cudastub_${lib}_cu${abi}_routes)
    list(APPEND sources ${gen}/cu${abi}/${lib}_routes.c)
  endif()
  foreach(data layout_tables enums library)
    if(EXISTS ${gen}/${lib}_${data}.c)
      list(APPEND sources ${gen}/${lib}_${data}.c)
    endif()
  endforeach()
  # compiled once: the stub, its shim and libcudastub_cu<abi> link these
  add_library(${target}_objects OBJECT ${sources})
  target_include_directories(${target}_objects PRIVATE ${gen}/cu${abi} ${gen} ${includes}
    ${CUDASTUB_LOADER_DIRS} ${PROJECT_SOURCE_DIR}/include
    ${CUDASTUB_GENERATED}/include)
  # CUDASTUB_NO_UNIFIED_API: the weak references of cudastub.h are for
  # programs; inside a stub they would make its own definitions weak.
  target_compile_definitions(${target}_objects PRIVATE CUDASTUB_NO_UNIFIED_API
    CUDASTUB_ABI_MAJOR=${abi} CUDASTUB_ABI_MINOR=${minor})
  cudastub_glibc_floor(${target}_objects)
  set_target_properties(${target}_objects PROPERTIES
    C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON)

  set(map ${gen}/cu${abi}/${lib}.map)
  set(name ${lib}_stub_cu${abi}-${tag})
  add_library(${target} SHARED $<TARGET_OBJECTS:${target}_objects>)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${CUDASTUB_GENERATED}/include> $<INSTALL_INTERFACE:include>)
  cudastub_link_like_a_stub(${target} ${map})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name}
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    EXPORT_NAME ${cudastub_${lib}_alias}_cu${abi})
  target_link_options(${target} PRIVATE -Wl,-soname,lib${name}.so)
  # lib<lib>_stub_cu<abi>.so, the name to link with by hand (-l)
  add_custom_command(TARGET ${target} POST_BUILD COMMAND ${CMAKE_COMMAND} -E create_symlink
    lib${name}.so ${PROJECT_BINARY_DIR}/lib/lib${lib}_stub_cu${abi}.so VERBATIM)
  add_library(cudastub::${cudastub_${lib}_alias}_cu${abi} ALIAS ${target})
  set_property(GLOBAL APPEND PROPERTY CUDASTUB_STUBS_CU${abi} ${lib})
  set_property(GLOBAL APPEND PROPERTY CUDASTUB_STUB_AND_SHIM_TARGETS ${target})
  if(CUDASTUB_INSTALL)
    install(TARGETS ${target} EXPORT cudastubTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    install(FILES ${PROJECT_BINARY_DIR}/lib/lib${lib}_stub_cu${abi}.so
      DESTINATION ${CMAKE_INSTALL_LIBDIR})
    cudastub_install_stripped(${target} ${CMAKE_INSTALL_LIBDIR})
  endif()

  # the shim: NVIDIA's SONAME for this ABI (or for every one), its version
  # node, in a folder of the ABI's own (the driver's in driver/ below it)
  set(soname "${cudastub_${lib}_soname_${abi}}${cudastub_${lib}_soname_any}")
  if(CUDASTUB_BUILD_SHIMS AND soname)
    string(REGEX REPLACE "^shim" "shim/cu${abi}" dir ${cudastub_${lib}_shim_dir})
    add_library(${lib}_shim_cu${abi} SHARED $<TARGET_OBJECTS:${target}_objects>)
    cudastub_link_like_a_stub(${lib}_shim_cu${abi} ${map})
    string(REGEX REPLACE "^lib(.*)\\.so\\..*$" "\\1" base ${soname})
    string(REGEX REPLACE "^lib.*\\.so\\.(.*)$" "\\1" suffix ${soname})
    set_target_properties(${lib}_shim_cu${abi} PROPERTIES OUTPUT_NAME ${base}
      SUFFIX .so.${suffix} LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${dir})
    target_link_options(${lib}_shim_cu${abi} PRIVATE -Wl,-soname,${soname})
    set_property(GLOBAL APPEND PROPERTY CUDASTUB_STUB_AND_SHIM_TARGETS ${lib}_shim_cu${abi})
    # a component of their own: a wheel, which cannot hold links, leaves
    # these second copies of the stubs out (`cudastub shim DIR` makes them)
    if(CUDASTUB_INSTALL)
      install(TARGETS ${lib}_shim_cu${abi} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudastub/${dir}
        COMPONENT shims)
      cudastub_install_stripped(${lib}_shim_cu${abi} ${CMAKE_INSTALL_LIBDIR}/cudastub/${dir} shims)
    endif()
  endif()
endfunction()

# cudastub_add_combined(<abi>): libcudastub_cu<abi>-<tag>.so (target
# cudastub_combined_cu<abi>, alias cudastub::all_cu<abi>), every stub of
# that ABI in one file: each library's objects, compiled once for its
# stub, the loader once, and every export in its library's version node
# (a library whose symbols carry none is named by its SONAME there,
# libnvidia_ml.so.1, as a node's name has no '-'). A program linked against
# it (-lcudastub_cu13 in place of -lcudart -lcublas ...) starts at the cost
# of one stub, not of one per library: the dynamic loader opens, maps,
# relocates and checks the versions of each file (docs/performance.md).
# Each library's search, log and slots stay its own.
function(cudastub_add_combined abi)
  get_property(parts GLOBAL PROPERTY CUDASTUB_STUBS_CU${abi})
  if(NOT CUDASTUB_BUILD_COMBINED OR NOT parts)
    return()
  endif()
  set(script "")
  set(objects)
  foreach(lib IN LISTS parts)
    set(node "${cudastub_${lib}_soname_${abi}}${cudastub_${lib}_soname_any}")
    if(NOT node)
      set(node ${lib})
    endif()
    # a version script's node is letters, digits, '.' and '_' only
    string(REGEX REPLACE "[^._a-zA-Z0-9]" "_" node "${node}")
    file(READ ${CUDASTUB_GENERATED}/${lib}/cu${abi}/${lib}.map content)
    # "[node ]{ global: ...; local: *; };": the global list, in its node
    string(REGEX REPLACE "^[^{]*{" "" body "${content}")
    string(REGEX REPLACE "local: \\*;[ \n]*};[ \n]*$" "" body "${body}")
    string(APPEND script "${node} {${body}};\n")
    list(APPEND objects $<TARGET_OBJECTS:${lib}_stub_cu${abi}_objects>)
    # for tests/e2e/test_combined.c: each stub and its node here
    list(APPEND test_parts "$<TARGET_FILE:${lib}_stub_cu${abi}>=${node}")
  endforeach()
  # everything else local, in the last node (a node of its own would be
  # one more version the file defines)
  string(REGEX REPLACE "};\n$" "  local: *;\n};\n" script "${script}")
  set(map ${CMAKE_CURRENT_BINARY_DIR}/cudastub_combined_cu${abi}.map)
  file(WRITE ${map} "${script}")
  # the generator's tag, from those of the stubs it holds
  set(name cudastub_cu${abi}-${cudastub_combined_cu${abi}_tag})
  set(target cudastub_combined_cu${abi})
  add_library(${target} SHARED ${objects})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name} EXPORT_NAME all_cu${abi}
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
  target_link_options(${target} PRIVATE -Wl,-soname,lib${name}.so)
  add_custom_command(TARGET ${target} POST_BUILD COMMAND ${CMAKE_COMMAND} -E create_symlink
    lib${name}.so ${PROJECT_BINARY_DIR}/lib/libcudastub_cu${abi}.so VERBATIM)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${CUDASTUB_GENERATED}/include> $<INSTALL_INTERFACE:include>)
  cudastub_link_like_a_stub(${target} ${map})
  add_library(cudastub::all_cu${abi} ALIAS ${target})
  list(JOIN test_parts ":" test_parts)
  set_property(GLOBAL PROPERTY CUDASTUB_COMBINED_TEST_PARTS_CU${abi} "${test_parts}")
  if(CUDASTUB_INSTALL)
    install(TARGETS ${target} EXPORT cudastubTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    install(FILES ${PROJECT_BINARY_DIR}/lib/libcudastub_cu${abi}.so
      DESTINATION ${CMAKE_INSTALL_LIBDIR})
    cudastub_install_stripped(${target} ${CMAKE_INSTALL_LIBDIR})
  endif()
endfunction()
