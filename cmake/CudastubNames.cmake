# cudastub_library_of(<name> <out>): the library (as cudastub_libraries
# names it: cudart, nvrtc, cuda, nvjitlink, cublaslt, ...) that <name>
# means, in CUDASTUB_LIBRARIES or find_package's COMPONENTS: its CMake
# target name (cuda_driver, nvJitLink, cublasLt, ...) or its library name,
# in any case; "" when none. Both names are accepted because users know
# the stubs by both (cudastub::cuda_driver links libcuda_stub_cu<N>.so).
# Needs cudastub_libraries (generated/libraries.cmake, installed as
# CudastubLibraries.cmake).
function(cudastub_library_of name out)
  string(TOLOWER "${name}" wanted)
  set(found "")
  foreach(lib IN LISTS cudastub_libraries)
    string(TOLOWER "${cudastub_${lib}_alias}" alias)
    if(wanted STREQUAL lib OR wanted STREQUAL alias)
      set(found ${lib})
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()
