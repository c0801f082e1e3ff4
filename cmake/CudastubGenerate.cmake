# cudastub_generate(): what the build compiles of every library, written by
# the generator (tools/gen_stubs/gen_stubs.py build, Python's standard
# library only) from specs/ and data/ into <build>/generated
# (CUDASTUB_GENERATED), then read: generated/cmake/libraries.cmake says
# every library's SONAMEs, names and targets, and for each CUDA ABI it
# serves, the record its stub is built from and the tag its file name
# carries. Nothing of NVIDIA's is read. An edit to a spec, a record or the
# generator configures the build again.
function(cudastub_generate)
  find_package(Python3 3.6 REQUIRED COMPONENTS Interpreter)
  set(out ${PROJECT_BINARY_DIR}/generated)
  set(gen ${PROJECT_SOURCE_DIR}/tools/gen_stubs/gen_stubs.py)
  set(args build --specs ${PROJECT_SOURCE_DIR}/specs --data ${PROJECT_SOURCE_DIR}/data
    --out ${out} --version ${PROJECT_VERSION})
  foreach(name IN LISTS CUDASTUB_LIBRARIES)
    list(APPEND args --library ${name})
  endforeach()
  execute_process(COMMAND ${Python3_EXECUTABLE} ${gen} ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cudastub: the generator failed (${Python3_EXECUTABLE} ${gen} "
      "build):\n${output}")
  endif()
  file(GLOB inputs ${PROJECT_SOURCE_DIR}/specs/* ${PROJECT_SOURCE_DIR}/data/abi/*
    ${PROJECT_SOURCE_DIR}/data/exports/* ${PROJECT_SOURCE_DIR}/tools/gen_stubs/*.py)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${inputs} ${PROJECT_SOURCE_DIR}/specs ${PROJECT_SOURCE_DIR}/data/abi
    ${PROJECT_SOURCE_DIR}/data/exports)
  set(CUDASTUB_GENERATED ${out} PARENT_SCOPE)
  set(CUDASTUB_GENERATED ${out} CACHE INTERNAL "the generator's output")
  set(CUDASTUB_PYTHON ${Python3_EXECUTABLE} CACHE INTERNAL "the Python that runs the generator")
endfunction()
