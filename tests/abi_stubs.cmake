# The NVRTC and runtime stubs compiled against the 11.8 and 12.4 headers
# (the build's own are 13.0), for every suite that runs a stub of
# another ABI: nvrtc/ (the matrix), cudart/, adapters/. Each ABI whose
# headers were fetched (tests/fixtures/fetch.sh) before configuring gets
#   <build>/tests/abi-<major>/libnvrtc_stub.so, libcudart_stub.so
#   <build>/tests/abi-<major>/shim/             the same under the real SONAMEs
# as the targets {nvrtc,cudart}_{stub,shim}_abi<major>; the target
# cudastub_abi_stubs builds them all, and CUDASTUB_TEST_ABIS lists the
# majors built. A suite that needs a missing one reports it (a failure
# under CI=true, a SKIP elsewhere).
set(CUDASTUB_ABI_STUBS_DIR ${CMAKE_CURRENT_BINARY_DIR})
set(CUDASTUB_TEST_ABIS)
add_custom_target(cudastub_abi_stubs)
foreach(version 11.8 12.4)
  string(REPLACE "." ";" parts ${version})
  list(GET parts 0 major)
  list(GET parts 1 minor)
  set(include ${CUDASTUB_FIXTURES}/headers-${version}/usr/include)
  if(NOT EXISTS ${include}/nvrtc.h)
    continue()
  endif()
  set(dir ${CUDASTUB_ABI_STUBS_DIR}/abi-${major})
  foreach(lib nvrtc cudart)
    set(soname ${cudastub_${lib}_soname_${major}})
    cudastub_add_stub_for_abi(${lib}_stub_abi${major} ${lib} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${include} OUTPUT_DIR ${dir} OUTPUT_NAME ${lib}_stub VERSION_NODE ${soname})
    cudastub_add_stub_for_abi(${lib}_shim_abi${major} ${lib} MAJOR ${major} MINOR ${minor}
      INCLUDE_DIR ${include} SONAME ${soname} OUTPUT_DIR ${dir}/shim)
    add_dependencies(cudastub_abi_stubs ${lib}_stub_abi${major} ${lib}_shim_abi${major})
  endforeach()
  list(APPEND CUDASTUB_TEST_ABIS ${major})
endforeach()
