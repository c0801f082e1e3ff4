# cudastub_add_stub(<lib> ALIAS <alias> SHIM_SONAME <soname> SOURCES ...
#                   [INCLUDE_DIRS ...] [SHIM_NO_VERSION_NODE] [SHIM_DIR dir])
#
# Builds lib<lib>_stub.so (target <lib>_stub, alias cudastub::<alias>) from
# the shared loader, the hand-written sources and the generated wrappers of
# the build headers' major. Its symbols carry the version node of the real
# library of that ABI (<soname>, unless SHIM_NO_VERSION_NODE: the driver has
# none), so a binary linked against NVIDIA's library and patched to the stub
# finds every versioned reference defined. With CUDASTUB_BUILD_SHIMS, also
# builds the same code as <SHIM_DIR>/<soname> (default shim/): NVIDIA's
# SONAME and version node, for binaries that load it in NVIDIA's place.
#
# cudastub_add_stub_for_abi(<target> <lib> MAJOR m MINOR n INCLUDE_DIR dir...
#                           [SONAME soname | VERSION_NODE node] OUTPUT_DIR dir)
#
# The same stub compiled against another major's headers (the tests build
# the 11.8 and 12.4 ABIs this way, from the fetched headers). With SONAME it
# is a shim: that file name, SONAME and version node; VERSION_NODE gives a
# link-target stub its real library's version node. OBJECTS_OF <stub>: the
# objects of that stub target, of the same library, major and headers, not
# compiled again (a shim is its stub linked under another name).

# cudastub_glibc_floor(<target>): the oldest glibc the target runs on is
# 2.17 (stubs/common/glibc_floor.h, force-included into its C files), and
# it names libc.so.6 alone: the dl functions, which glibc before 2.34 keeps
# in libdl.so.2, are found at run time (stubs/common/loader_dl.c), so the
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
    "$<$<COMPILE_LANGUAGE:C>:SHELL:-include ${PROJECT_SOURCE_DIR}/stubs/common/glibc_floor.h>")
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

# cudastub_install_stripped(<target> <destination>): the installed copy
# loses its debug information (a wheel ships it; the build tree keeps it),
# unless CUDASTUB_INSTALL_DEBUG_INFO is on. Its symbols stay: they are the
# exports.
function(cudastub_install_stripped target destination)
  if(CUDASTUB_INSTALL_DEBUG_INFO OR NOT CMAKE_STRIP)
    return()
  endif()
  install(CODE "execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${destination}/$<TARGET_FILE_NAME:${target}>\"
    COMMAND_ERROR_IS_FATAL ANY)")
endfunction()

# cudastub_table_folders(<out> <generated> <major>): where a stub of that
# ABI finds its table files. A major's folder has no copy of a file
# identical to the next newer major's (the generator writes it once), so:
# its own folder, then the newer majors' in order, for sources and includes.
# A regeneration adds and removes such copies: each folder is a configure
# dependency (its time changes with its entries), so that the next build
# configures again instead of compiling a file that is gone.
function(cudastub_table_folders out generated major)
  file(GLOB folders RELATIVE ${generated} ${generated}/cuda-*)
  list(SORT folders COMPARE NATURAL)
  set(found)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${generated})
  foreach(folder IN LISTS folders)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${generated}/${folder})
    string(REPLACE "cuda-" "" folder_major ${folder})
    if(folder_major GREATER_EQUAL major)
      list(APPEND found ${generated}/${folder})
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(cudastub_add_stub_for_abi target lib)
  cmake_parse_arguments(ARG "NO_VERSION_NODE"
    "MAJOR;MINOR;SONAME;VERSION_NODE;OUTPUT_DIR;OUTPUT_NAME;OBJECTS_OF" "INCLUDE_DIR" ${ARGN})
  get_property(sources GLOBAL PROPERTY CUDASTUB_${lib}_SOURCES)
  get_property(stub_dir GLOBAL PROPERTY CUDASTUB_${lib}_DIR)
  get_property(extra_includes GLOBAL PROPERTY CUDASTUB_${lib}_INCLUDES)
  set(gen ${stub_dir}/generated/cuda-${ARG_MAJOR})
  if(NOT EXISTS ${gen}/${lib}.symbols)
    message(FATAL_ERROR "cudastub: no generated ${lib} table for CUDA "
      "${ARG_MAJOR} in ${gen}; run the regenerate target with "
      "that major's ABI record in tools/gen_stubs/data/abi/")
  endif()
  cudastub_table_folders(table_folders ${stub_dir}/generated ${ARG_MAJOR})
  # the rows (<lib>_rows.h) and the checks are one file for every ABI, in
  # generated/ itself: each line that is not every ABI's says whose it is
  set(table_sources ${stub_dir}/generated/${lib}_checks.c)
  foreach(file ${lib}_table.c)
    foreach(folder IN LISTS table_folders)
      if(EXISTS ${folder}/${file})
        list(APPEND table_sources ${folder}/${file})
        break()
      endif()
    endforeach()
  endforeach()
  file(STRINGS ${gen}/${lib}.symbols symbols REGEX "^[A-Za-z_]")
  list(APPEND symbols cudastub_${lib}_info cudastub_${lib}_load)
  list(JOIN symbols ";\n    " exported)
  set(node "")
  if(ARG_VERSION_NODE)
    set(node "${ARG_VERSION_NODE} ")
  elseif(ARG_SONAME AND NOT ARG_NO_VERSION_NODE)
    set(node "${ARG_SONAME} ")
  endif()
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  file(WRITE ${map} "${node}{\n  global:\n    ${exported};\n  local: *;\n};\n")

  if(ARG_OBJECTS_OF)
    set(objects ${ARG_OBJECTS_OF}_objects)
  else()
    set(objects ${target}_objects)
    # the table (its rows, <lib>_rows.h, become slots and forwarders) and
    # the check of every export against the headers' declaration
    set(generated ${table_sources})
    if(EXISTS ${gen}/${lib}_routes.c) # other names and translated structs
      list(APPEND generated ${gen}/${lib}_routes.c)
    endif()
    # what no major changes: the structs translated, enums' values, and for a
    # library described by its spec alone, its description and probe
    foreach(data layout_tables enums library)
      if(EXISTS ${stub_dir}/generated/${lib}_${data}.c)
        list(APPEND generated ${stub_dir}/generated/${lib}_${data}.c)
      endif()
    endforeach()
    # the library's own code, compiled once: the stub links it with the
    # loader, and libcudastub.so (cudastub_add_combined) with every other
    # library's
    add_library(${objects} OBJECT ${sources} ${generated})
    target_include_directories(${objects} PRIVATE
      ${stub_dir} ${table_folders} ${stub_dir}/generated ${PROJECT_SOURCE_DIR}/stubs/common
      ${extra_includes} ${PROJECT_SOURCE_DIR}/include)
    target_include_directories(${objects} SYSTEM PRIVATE ${ARG_INCLUDE_DIR})
    # CUDASTUB_NO_UNIFIED_API: the weak references of cudastub.h are for
    # programs; inside a stub they would make its own definitions weak.
    target_compile_definitions(${objects} PRIVATE CUDASTUB_NO_UNIFIED_API
      CUDASTUB_ABI_MAJOR=${ARG_MAJOR} CUDASTUB_ABI_MINOR=${ARG_MINOR})
    cudastub_glibc_floor(${objects})
    set_target_properties(${objects} PROPERTIES
      C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON)
  endif()
  add_library(${target} SHARED $<TARGET_OBJECTS:${objects}>)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  cudastub_link_like_a_stub(${target} ${map})
  set_property(GLOBAL PROPERTY CUDASTUB_${target}_MAP ${map})
  if(ARG_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  endif()
  if(ARG_SONAME)
    # lib<x>.so.N: the file name is the SONAME, with no symlink chain
    string(REGEX REPLACE "^lib(.*)\\.so\\..*$" "\\1" base ${ARG_SONAME})
    string(REGEX REPLACE "^lib.*\\.so\\.(.*)$" "\\1" suffix ${ARG_SONAME})
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${base} SUFFIX .so.${suffix})
    target_link_options(${target} PRIVATE -Wl,-soname,${ARG_SONAME})
  elseif(ARG_OUTPUT_NAME)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${ARG_OUTPUT_NAME})
  endif()
endfunction()

# cudastub_add_generated_stub(<lib>): the stub of a library its spec
# describes alone (no hand-written C), from stubs/<folder>/generated/ and
# the generated list of libraries (cmake/generated/libraries.cmake).
function(cudastub_add_generated_stub lib)
  set(options)
  if(NOT cudastub_${lib}_version_node)
    set(options SHIM_NO_VERSION_NODE)
  endif()
  # the SONAME of the headers' major, or the one of every major (_any:
  # libnvidia-ml.so.1; libnvToolsExt.so.1, which CUDA 13 does not ship but
  # 11 and 12 programs link)
  set(soname "${cudastub_${lib}_soname_${CUDASTUB_ABI_MAJOR}}${cudastub_${lib}_soname_any}")
  if(NOT soname)
    message(STATUS "cudastub: ${lib}: no library of CUDA ${CUDASTUB_ABI_MAJOR}; no stub")
    return()
  endif()
  cudastub_add_stub(${lib} ${options}
    ALIAS ${cudastub_${lib}_alias}
    SHIM_SONAME ${soname}
    SHIM_DIR ${cudastub_${lib}_shim_dir}
    STUB_DIR ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder})
endfunction()

function(cudastub_add_stub lib)
  cmake_parse_arguments(ARG "SHIM_NO_VERSION_NODE" "ALIAS;SHIM_SONAME;SHIM_DIR;STUB_DIR"
    "SOURCES;INCLUDE_DIRS" ${ARGN})
  if(NOT ARG_SHIM_DIR)
    set(ARG_SHIM_DIR shim)
  endif()
  if(NOT ARG_STUB_DIR)
    set(ARG_STUB_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  set(version_node)
  if(NOT ARG_SHIM_NO_VERSION_NODE)
    set(version_node VERSION_NODE ${ARG_SHIM_SONAME})
  endif()
  list(TRANSFORM ARG_SOURCES PREPEND ${ARG_STUB_DIR}/)
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_INCLUDES ${ARG_INCLUDE_DIRS})
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_SOURCES ${ARG_SOURCES})
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_DIR ${ARG_STUB_DIR})

  # the tables of the CUDA headers' major, or a driver library's own
  # (cudastub_select_libraries)
  set(major ${cudastub_${lib}_abi_major})
  set(minor ${cudastub_${lib}_abi_minor})
  if(NOT major)
    set(major ${CUDASTUB_ABI_MAJOR})
    set(minor ${CUDASTUB_ABI_MINOR})
  endif()
  cudastub_add_stub_for_abi(${lib}_stub ${lib} MAJOR ${major} MINOR ${minor}
    INCLUDE_DIR ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS}
    OUTPUT_NAME ${lib}_stub ${version_node})
  add_library(cudastub::${ARG_ALIAS} ALIAS ${lib}_stub)
  # a part of libcudastub.so: its objects, and its version node there (the
  # driver's, NVML's and NCCL's, which have none, are named by SONAME)
  set(node ${ARG_SHIM_SONAME})
  if(NOT node)
    set(node ${lib})
  endif()
  set_property(GLOBAL APPEND PROPERTY CUDASTUB_COMBINED_PARTS ${lib})
  set_property(GLOBAL PROPERTY CUDASTUB_${lib}_COMBINED_NODE ${node})
  # cudastub::<alias> once installed too; the headers it was built with go
  # to its users (installed, cudastubConfig.cmake finds them again)
  set_target_properties(${lib}_stub PROPERTIES EXPORT_NAME ${ARG_ALIAS})
  foreach(dir IN ITEMS ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS})
    target_include_directories(${lib}_stub SYSTEM INTERFACE $<BUILD_INTERFACE:${dir}>)
  endforeach()
  if(CUDASTUB_INSTALL)
    install(TARGETS ${lib}_stub EXPORT cudastubTargets
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    cudastub_install_stripped(${lib}_stub ${CMAKE_INSTALL_LIBDIR})
  endif()

  if(CUDASTUB_BUILD_SHIMS AND ARG_SHIM_SONAME)
    set(no_node)
    if(ARG_SHIM_NO_VERSION_NODE)
      set(no_node NO_VERSION_NODE)
    endif()
    cudastub_add_stub_for_abi(${lib}_shim ${lib} ${no_node} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS}
      SONAME ${ARG_SHIM_SONAME} OBJECTS_OF ${lib}_stub
      OUTPUT_DIR ${PROJECT_BINARY_DIR}/${ARG_SHIM_DIR})
    if(CUDASTUB_INSTALL)
      install(TARGETS ${lib}_shim
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudastub/${ARG_SHIM_DIR})
      cudastub_install_stripped(${lib}_shim ${CMAKE_INSTALL_LIBDIR}/cudastub/${ARG_SHIM_DIR})
    endif()
  endif()
endfunction()

# cudastub_add_combined(): libcudastub.so (target cudastub_combined, alias
# cudastub::all), every stub of the build in one file: each library's
# objects, compiled once for its stub, the loader once, and every export in
# its library's version node (the driver's, NVML's and NCCL's, which have
# none, in a node named by their SONAME: libnvidia_ml.so.1, as a node's
# name has no '-'). A program linked against it
# (-lcudastub in place of -lcudart -lcublas ...) starts at the cost of one
# stub, not of one per library: the dynamic loader opens, maps, relocates
# and checks the versions of each file (docs/performance.md, issue 20
# point 6). Each library's search, log and slots stay its own.
function(cudastub_add_combined)
  get_property(parts GLOBAL PROPERTY CUDASTUB_COMBINED_PARTS)
  if(NOT CUDASTUB_BUILD_COMBINED OR NOT parts)
    return()
  endif()
  set(map ${CMAKE_CURRENT_BINARY_DIR}/cudastub_combined.map)
  set(script "")
  set(objects)
  foreach(lib IN LISTS parts)
    get_property(part_map GLOBAL PROPERTY CUDASTUB_${lib}_stub_MAP)
    get_property(node GLOBAL PROPERTY CUDASTUB_${lib}_COMBINED_NODE)
    # a version script's node is letters, digits, '.' and '_' only
    string(REGEX REPLACE "[^._a-zA-Z0-9]" "_" node "${node}")
    file(READ ${part_map} content)
    # "[node ]{ global: ...; local: *; };": the global list, in its node
    string(REGEX REPLACE "^[^{]*{" "" body "${content}")
    string(REGEX REPLACE "local: \\*;[ \n]*};[ \n]*$" "" body "${body}")
    string(APPEND script "${node} {${body}};\n")
    list(APPEND objects $<TARGET_OBJECTS:${lib}_stub_objects>)
    # for tests/e2e/test_combined.c: each stub and its node here
    list(APPEND test_parts "$<TARGET_FILE:${lib}_stub>=${node}")
  endforeach()
  # everything else local, in the last node (a node of its own would be
  # one more version the file defines)
  string(REGEX REPLACE "};\n$" "  local: *;\n};\n" script "${script}")
  file(WRITE ${map} "${script}")
  add_library(cudastub_combined SHARED ${objects})
  set_target_properties(cudastub_combined PROPERTIES OUTPUT_NAME cudastub EXPORT_NAME all)
  target_include_directories(cudastub_combined PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  foreach(dir IN ITEMS ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS})
    target_include_directories(cudastub_combined SYSTEM INTERFACE $<BUILD_INTERFACE:${dir}>)
  endforeach()
  cudastub_link_like_a_stub(cudastub_combined ${map})
  add_library(cudastub::all ALIAS cudastub_combined)
  list(JOIN test_parts ":" test_parts)
  set_property(GLOBAL PROPERTY CUDASTUB_COMBINED_TEST_PARTS "${test_parts}")
  if(CUDASTUB_INSTALL)
    install(TARGETS cudastub_combined EXPORT cudastubTargets
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    cudastub_install_stripped(cudastub_combined ${CMAKE_INSTALL_LIBDIR})
  endif()
endfunction()
