# The stubs of the ABIs other than the build's (CUDASTUB_ABI), for every
# suite that runs a stub of another ABI: nvrtc/ (the matrix), cudart/,
# cuda_driver/, adapters/. The build makes every ABI's; the suites find the
# runtime's, NVRTC's and the driver's of each other major M as
#   <build>/tests/abi-M/libnvrtc_stub.so, libcudart_stub.so, libcuda_stub.so
#   <build>/tests/abi-M/shim/          the build's shim/cuM (driver/ below it)
# (links to the build's files), and as the targets
# {nvrtc,cudart,cuda}_{stub,shim}_abiM; the target cudastub_abi_stubs makes
# them all, and CUDASTUB_TEST_ABIS lists the majors.
set(CUDASTUB_ABI_STUBS_DIR ${CMAKE_CURRENT_BINARY_DIR})
set(CUDASTUB_TEST_ABIS)
add_custom_target(cudastub_abi_stubs)
foreach(major IN LISTS cudastub_abis)
  if(major EQUAL CUDASTUB_ABI)
    continue() # the build's own stubs
  endif()
  set(dir ${CUDASTUB_ABI_STUBS_DIR}/abi-${major})
  set(links)
  foreach(lib nvrtc cudart cuda)
    add_library(${lib}_stub_abi${major} ALIAS ${lib}_stub_cu${major})
    add_library(${lib}_shim_abi${major} ALIAS ${lib}_shim_cu${major})
    list(APPEND links COMMAND ${CMAKE_COMMAND} -E create_symlink
      $<TARGET_FILE:${lib}_stub_cu${major}> ${dir}/lib${lib}_stub.so)
    add_dependencies(cudastub_abi_stubs ${lib}_stub_cu${major} ${lib}_shim_cu${major})
  endforeach()
  add_custom_target(cudastub_abi_stubs_${major}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir} ${links}
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${PROJECT_BINARY_DIR}/shim/cu${major} ${dir}/shim
    VERBATIM)
  add_dependencies(cudastub_abi_stubs cudastub_abi_stubs_${major})
  list(APPEND CUDASTUB_TEST_ABIS ${major})
endforeach()

# cudastub_test_with_abi_stubs(<test> <lib> <HEADER> <PREFIX> [<FIXTURE>])
# A spec library's stubs of the 12 and 11 ABIs, for a suite that runs them:
# their paths <test> gets as <PREFIX>_STUB_12 and <PREFIX>_STUB_11 ("" where
# the library serves no such ABI, which the suite reports), beside
# <PREFIX>_STUB, the build's own stub. HEADER and FIXTURE are not read:
# the stubs are built from the records.
function(cudastub_test_with_abi_stubs test lib header prefix)
  add_dependencies(${test} ${lib}_stub)
  foreach(major 12 11)
    set(stub_${major} "")
    if(TARGET ${lib}_stub_cu${major})
      add_dependencies(${test} ${lib}_stub_cu${major})
      set(stub_${major} $<TARGET_FILE:${lib}_stub_cu${major}>)
    endif()
  endforeach()
  target_compile_definitions(${test} PRIVATE ${prefix}_STUB="$<TARGET_FILE:${lib}_stub>"
    ${prefix}_STUB_12="${stub_12}" ${prefix}_STUB_11="${stub_11}")
endfunction()

# cudastub_stub_from_fixture_headers(<lib> <version> <out>)
# A spec library's stub of <version>'s major (nvJPEG, nvFatbin and cuFile,
# which serve no CUDA 13 ABI here): <out> is its target, or "" where the
# library serves no such ABI.
function(cudastub_stub_from_fixture_headers lib version out)
  string(REPLACE "." ";" parts ${version})
  list(GET parts 0 major)
  set(${out} "" PARENT_SCOPE)
  if(TARGET ${lib}_stub_cu${major})
    set(${out} ${lib}_stub_cu${major} PARENT_SCOPE)
  endif()
endfunction()

# cudastub_test_with_fixture_stubs(<test> <lib> <prefix>)
# The suite <test> is given the paths of <lib>'s 12- and 11-ABI stubs (of
# the 12.4 and 11.8 fixture headers, cudastub_stub_from_fixture_headers)
# as <prefix>_STUB_12 and <prefix>_STUB_11, "" where there is none, and
# builds after them.
function(cudastub_test_with_fixture_stubs test lib prefix)
  foreach(version 12.4 11.8)
    string(REGEX MATCH "^[0-9]+" major ${version})
    cudastub_stub_from_fixture_headers(${lib} ${version} stub)
    set(path_${major} "")
    if(stub)
      set(path_${major} $<TARGET_FILE:${stub}>)
      add_dependencies(${test} ${stub})
    endif()
  endforeach()
  target_compile_definitions(${test} PRIVATE
    ${prefix}_STUB_12="${path_12}" ${prefix}_STUB_11="${path_11}")
endfunction()

# cudastub_add_fixture_headers_test(<lib> <PREFIX> [<include dir>...])
# The real suite <lib>_real (test_<lib>_real.c) of a library built from the
# fixture headers alone: nothing where the 12.4 headers' stub is missing
# (the contract suites report the missing headers) or in a cross build;
# else the suite, given its stubs as cudastub_test_with_fixture_stubs gives
# them, reading the library's types from <include dir>s.
function(cudastub_add_fixture_headers_test lib prefix)
  cudastub_stub_from_fixture_headers(${lib} 12.4 stub_12)
  if(NOT stub_12 OR CMAKE_CROSSCOMPILING)
    return()
  endif()
  cudastub_add_test(${lib}_real LABELS real SOURCES test_${lib}_real.c)
  if(ARGN)
    target_include_directories(${lib}_real SYSTEM BEFORE PRIVATE ${ARGN})
  endif()
  cudastub_test_with_fixture_stubs(${lib}_real ${lib} ${prefix})
endfunction()

# cudastub_test_with_stubs(<test> <DEFINITION> <stub target> ...)
# The suite <test> is given the path of each stub target as <DEFINITION>
# and builds after them.
function(cudastub_test_with_stubs test)
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs definition stub)
    target_compile_definitions(${test} PRIVATE ${definition}="$<TARGET_FILE:${stub}>")
    add_dependencies(${test} ${stub})
  endwhile()
endfunction()
