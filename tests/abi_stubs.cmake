# The three stubs compiled against the headers of the ABIs the build is not
# (of 11.8, 12.4 and 13.0), for every suite that runs a stub of another ABI: nvrtc/
# (the matrix), cudart/, cuda_driver/, adapters/. Each ABI whose headers
# were fetched (tests/fixtures/fetch.sh) before configuring gets
#   <build>/tests/abi-<major>/libnvrtc_stub.so, libcudart_stub.so,
#                             libcuda_stub.so
#   <build>/tests/abi-<major>/shim/             the runtime and NVRTC under
#                                               their real SONAMEs
#   <build>/tests/abi-<major>/shim/driver/      libcuda.so.1
# as the targets {nvrtc,cudart,cuda}_{stub,shim}_abi<major>; the target
# cudastub_abi_stubs builds them all, and CUDASTUB_TEST_ABIS lists the
# majors built. The driver has one SONAME and no symbol versions (as in
# stubs/cuda_driver). A suite that needs a missing one reports it (a
# failure under CI=true, a SKIP elsewhere).
#
# A build of another ABI than 13 (a packager's libcudart.so.12 stubs,
# configured with the 12.4 headers) makes the 13.0 ones from the CUDA 13
# toolkit's headers, CUDASTUB_TEST_HEADERS_13 (found at /usr/local/cuda or
# CUDAToolkit_ROOT13), which the suites written against 13.0 compile with:
# every build runs the same cases on the same three ABIs.
set(CUDASTUB_ABI_STUBS_DIR ${CMAKE_CURRENT_BINARY_DIR})
set(CUDASTUB_TEST_ABIS)
add_custom_target(cudastub_abi_stubs)
set(CUDASTUB_TEST_HEADERS_13 "")
if(CUDASTUB_ABI_MAJOR EQUAL 13)
  set(CUDASTUB_TEST_HEADERS_13 ${CUDASTUB_CUDA_INCLUDE_DIR})
else()
  foreach(root ${CUDAToolkit_ROOT13} /usr/local/cuda)
    if(EXISTS ${root}/include/cuda.h AND EXISTS ${root}/include/nvrtc.h)
      file(STRINGS ${root}/include/cuda.h line REGEX "^#define CUDA_VERSION 13[0-9][0-9][0-9]")
      if(line)
        set(CUDASTUB_TEST_HEADERS_13 ${root}/include)
        string(REGEX MATCH "13[0-9][0-9][0-9]" cuda_version13 "${line}")
        break()
      endif()
    endif()
  endforeach()
  if(NOT CUDASTUB_TEST_HEADERS_13)
    message(STATUS "cudastub tests: no CUDA 13 headers (set CUDAToolkit_ROOT13): the "
      "suites written against 13.0 will say so")
  endif()
endif()
set(version13 13.0) # the build's own when it is 13: not built here
if(cuda_version13)
  math(EXPR minor13 "(${cuda_version13} % 1000) / 10")
  set(version13 13.${minor13})
endif()
foreach(version 11.8 12.4 ${version13})
  string(REPLACE "." ";" parts ${version})
  list(GET parts 0 major)
  list(GET parts 1 minor)
  if(major EQUAL CUDASTUB_ABI_MAJOR)
    continue() # the build's own stubs
  endif()
  set(include ${CUDASTUB_FIXTURES}/headers-${version}/usr/include)
  if(major EQUAL 13)
    set(include ${CUDASTUB_TEST_HEADERS_13})
  endif()
  if(NOT include OR NOT EXISTS ${include}/nvrtc.h)
    continue()
  endif()
  set(dir ${CUDASTUB_ABI_STUBS_DIR}/abi-${major})
  foreach(lib nvrtc cudart)
    set(soname ${cudastub_${lib}_soname_${major}})
    cudastub_add_stub_for_abi(${lib}_stub_abi${major} ${lib} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${include} OUTPUT_DIR ${dir} OUTPUT_NAME ${lib}_stub VERSION_NODE ${soname})
    cudastub_add_stub_for_abi(${lib}_shim_abi${major} ${lib} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${include} SONAME ${soname} OUTPUT_DIR ${dir}/shim
      OBJECTS_OF ${lib}_stub_abi${major})
    add_dependencies(cudastub_abi_stubs ${lib}_stub_abi${major} ${lib}_shim_abi${major})
  endforeach()
  cudastub_add_stub_for_abi(cuda_stub_abi${major} cuda MAJOR ${major} MINOR ${minor}
    INCLUDE_DIR ${include} OUTPUT_DIR ${dir} OUTPUT_NAME cuda_stub)
  cudastub_add_stub_for_abi(cuda_shim_abi${major} cuda NO_VERSION_NODE MAJOR ${major}
    MINOR ${minor} INCLUDE_DIR ${include} SONAME ${cudastub_cuda_soname_any}
    OUTPUT_DIR ${dir}/shim/driver OBJECTS_OF cuda_stub_abi${major})
  add_dependencies(cudastub_abi_stubs cuda_stub_abi${major} cuda_shim_abi${major})
  list(APPEND CUDASTUB_TEST_ABIS ${major})
endforeach()

# cudastub_test_with_abi_stubs(<test> <lib> <HEADER> <PREFIX> [<FIXTURE>])
# A spec library's stubs built against the 12.4 and 11.8 headers, for a
# suite that runs them: <build>/tests/<lib>/abi-<major>/lib<lib>_stub.so,
# whose paths <test> gets as <PREFIX>_STUB_12 and <PREFIX>_STUB_11 ("" where
# that release's <HEADER> was not fetched, which the suite reports), beside
# <PREFIX>_STUB, the build's own stub. <FIXTURE>: the library's headers come
# in a fixture of their own, <FIXTURE>-<version> (CUPTI's), read after the
# release's headers.
function(cudastub_test_with_abi_stubs test lib header prefix)
  add_dependencies(${test} ${lib}_stub)
  foreach(version 12.4 11.8)
    string(REPLACE "." ";" parts ${version})
    list(GET parts 0 major)
    list(GET parts 1 minor)
    set(include ${CUDASTUB_FIXTURES}/headers-${version}/usr/include)
    set(own ${include})
    if(ARGC GREATER 4)
      set(own ${CUDASTUB_FIXTURES}/${ARGV4}-${version}/usr/include)
      list(APPEND include ${own})
    endif()
    # searched last, as the generator parses them (spec: include_after):
    # 12.4's cuda_fp16.h includes libcu++'s <nv/target>, which Debian's
    # headers lack
    list(APPEND include ${PROJECT_SOURCE_DIR}/tools/gen_stubs/standins)
    set(stub_${major} "")
    if(EXISTS ${own}/${header} AND EXISTS ${CUDASTUB_FIXTURES}/headers-${version}/usr/include/cuda.h)
      cudastub_add_stub_for_abi(${lib}_stub_abi${major} ${lib} MAJOR ${major} MINOR ${minor}
        INCLUDE_DIR ${include} OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/abi-${major}
        OUTPUT_NAME ${lib}_stub
        VERSION_NODE ${cudastub_${lib}_soname_${major}}${cudastub_${lib}_soname_any})
      add_dependencies(${test} ${lib}_stub_abi${major})
      set(stub_${major} $<TARGET_FILE:${lib}_stub_abi${major}>)
    endif()
  endforeach()
  target_compile_definitions(${test} PRIVATE ${prefix}_STUB="$<TARGET_FILE:${lib}_stub>"
    ${prefix}_STUB_12="${stub_12}" ${prefix}_STUB_11="${stub_11}")
endfunction()

# cudastub_stub_from_fixture_headers(<lib> <version> <out>)
# A spec library this build skipped because its headers are not the
# build's (nvJPEG, nvFatbin and cuFile: no CUDA 13 toolkit recorded here
# has them), built as a packager builds it: against the fetched headers of
# <version> (12.4 or 11.8), headers-<version> and, where NVIDIA packages
# the library's headers apart, the include folder of the library's own
# fixture (cufile-<version>: libcufile-dev). <out>: the target
# (<build>/tests/fixture-<major>/lib<lib>_stub.so, made once), or "" where
# that release has no such library or its headers were not fetched.
function(cudastub_stub_from_fixture_headers lib version out)
  string(REPLACE "." ";" parts ${version})
  list(GET parts 0 major)
  list(GET parts 1 minor)
  set(target ${lib}_stub_fixture${major})
  set(${out} "" PARENT_SCOPE)
  if(NOT TARGET ${target})
    set(soname ${cudastub_${lib}_soname_${major}})
    set(cuda ${CUDASTUB_FIXTURES}/headers-${version}/usr/include)
    set(dirs ${cuda})
    if(EXISTS ${CUDASTUB_FIXTURES}/${lib}-${version}/usr/include)
      list(APPEND dirs ${CUDASTUB_FIXTURES}/${lib}-${version}/usr/include)
    endif()
    # libcu++'s <nv/target>, which 12.4's cuda_fp16.h includes and Debian's
    # headers lack: the generator's stand-in, searched last (as above)
    list(APPEND dirs ${PROJECT_SOURCE_DIR}/tools/gen_stubs/standins)
    set(found FALSE)
    foreach(dir IN LISTS dirs)
      if(EXISTS ${dir}/${cudastub_${lib}_header})
        set(found TRUE)
      endif()
    endforeach()
    if(NOT soname OR NOT found OR NOT EXISTS ${cuda}/cuda.h)
      return()
    endif()
    set_property(GLOBAL PROPERTY CUDASTUB_${lib}_DIR
      ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder})
    set_property(GLOBAL PROPERTY CUDASTUB_${lib}_SOURCES "")
    cudastub_add_stub_for_abi(${target} ${lib} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${dirs} OUTPUT_DIR ${CUDASTUB_ABI_STUBS_DIR}/fixture-${major}
      OUTPUT_NAME ${lib}_stub VERSION_NODE ${soname})
  endif()
  set(${out} ${target} PARENT_SCOPE)
endfunction()
