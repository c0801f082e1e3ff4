# cudastub_select_libraries(): which stubs this build makes. Sets
#   cudastub_built_libraries      the libraries built (names as in
#                                 cudastub_libraries: cudart, nvrtc, cuda, ...)
#   cudastub_<lib>_skipped        for each library left out, why (a clause)
#   cudastub_<lib>_header         each library's first header (its spec's)
# and prints one line a library: built, or skipped and why.
#
# CUDASTUB_LIBRARIES names the libraries to build, each by its CMake target
# name (cudart, nvrtc, cuda_driver, nvJitLink, cublas, cublasLt, ...) or its
# library name (cuda, nvjitlink, cublaslt), in any case. Empty (the default):
# every library whose headers are found. A library asked for by name whose
# headers are missing is an error that names the missing header and the
# package that provides it; one found by default is skipped with that reason.
#
# A library whose headers are not the toolkit's (nvml.h: Debian's
# libnvidia-ml-dev, NVIDIA's cuda_nvml_dev component) is found in
# CUDASTUB_EXTRA_INCLUDE_DIRS, searched after the CUDA headers.
#
# Each library's stub is built from its generated tables of the CUDA
# headers' major (cudastub_<lib>_abi_major and _abi_minor). A driver's
# library (one SONAME for every version: NVML) is not the toolkit's: where
# its records have no such major (NVML has none for 13.0, whose toolkit
# here lacks nvml.h), its newest older one serves.
#
# The headers are checked by compiling what the stub itself compiles first:
# its <lib>_stub.h (which includes every NVIDIA header its sources use),
# with the stub's include folders and the CUDA headers found. So the list
# never drifts from the sources, and the missing file named is the one the
# compiler missed, even where another header includes it.
include(CudastubNames)
set(CUDASTUB_LIBRARIES "" CACHE STRING
  "Libraries to build (cudart;nvrtc;cuda_driver;cublas;...); empty: every one whose headers are found")
# Headers NVIDIA packages apart from the toolkit (NVML's nvml.h, cuFile's
# cufile.h; pip's nvidia-nvjpeg-cu12 and the like each have an include
# folder of their own): searched after the CUDA headers, by the check below
# and by every stub.
set(CUDASTUB_EXTRA_INCLUDE_DIRS "" CACHE STRING
  "Further folders of NVIDIA headers (nvml.h, cufile.h, nvjpeg.h, ...), searched after the CUDA headers")

# The major of the generated tables lib's stub is built from, and its
# minor; "" when there are none for it.
function(_cudastub_build_abi lib out_major out_minor)
  set(gen ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder}/generated)
  set(major "")
  if(EXISTS ${gen}/cuda-${CUDASTUB_ABI_MAJOR})
    set(major ${CUDASTUB_ABI_MAJOR})
  elseif(cudastub_${lib}_soname_any)
    foreach(m RANGE ${CUDASTUB_ABI_MAJOR} 10 -1)
      if(EXISTS ${gen}/cuda-${m}/${lib}.symbols)
        set(major ${m})
        break()
      endif()
    endforeach()
  endif()
  set(minor "")
  if(major STREQUAL CUDASTUB_ABI_MAJOR)
    set(minor ${CUDASTUB_ABI_MINOR})
  elseif(major)
    # "# Exported by the nvml stub with the CUDA 12.4 ABI."
    file(STRINGS ${gen}/cuda-${major}/${lib}.symbols line LIMIT_COUNT 1)
    string(REGEX MATCH "CUDA ${major}\\.([0-9]+) ABI" _ "${line}")
    set(minor ${CMAKE_MATCH_1})
  endif()
  set(${out_major} "${major}" PARENT_SCOPE)
  set(${out_minor} "${minor}" PARENT_SCOPE)
endfunction()

# The package providing a library's headers: Debian's, and pip's (NVIDIA's
# wheels, named for the CUDA 12 and 11 releases with a -cu<major> suffix).
function(_cudastub_header_packages lib out)
  set(pip_cudart nvidia-cuda-runtime)
  set(pip_cuda nvidia-cuda-runtime)
  set(pip_nvrtc nvidia-cuda-nvrtc)
  set(pip_nvjitlink nvidia-nvjitlink)
  set(pip_cublaslt nvidia-cublas)
  set(pip_nvml nvidia-nvml-dev)
  set(pip_cupti nvidia-cuda-cupti)
  set(pip_cusolvermg nvidia-cusolver)
  set(pip_nvtoolsext nvidia-nvtx) # its headers: nvtx3/ (13: nvidia-nvtx alone)
  # NPP's eleven libraries are one wheel
  foreach(npp nppc nppial nppicc nppidei nppif nppig nppim nppist nppisu nppitc npps)
    set(pip_${npp} nvidia-npp)
  endforeach()
  # Debian packages these headers apart from the toolkit's
  set(debian_nvml libnvidia-ml-dev)
  set(debian_cupti libcupti-dev)
  set(debian_cufile libcufile-dev)
  set(debian_cudnn nvidia-cudnn)
  set(debian_nccl libnccl-dev)
  set(debian ${debian_${lib}})
  if(NOT debian)
    set(debian nvidia-cuda-dev)
  endif()
  set(pip ${pip_${lib}})
  if(NOT pip)
    set(pip nvidia-${lib})
  endif()
  # cuDNN and NCCL are products of their own, each wheel named for its CUDA
  # major (nvidia-cudnn-cu13), and outside Debian's nvidia-cuda-dev
  set(own_major_cudnn 1)
  set(own_major_nccl 1)
  set(major ${CUDASTUB_ABI_MAJOR})
  if(ARGC GREATER 2)
    set(major ${ARGV2})
  endif()
  if(major LESS 13 OR own_major_${lib})
    set(pip ${pip}-cu${major})
  endif()
  set(${out} "Debian's ${debian}, or pip's ${pip}" PARENT_SCOPE)
endfunction()

# Compiles <lib>_stub.h; sets <out> to "" when it compiles, else to the
# header the compiler did not find (or its first error, for another failure).
function(_cudastub_check_headers lib major minor out)
  set(folder ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder})
  set(dir ${PROJECT_BINARY_DIR}/CMakeFiles/cudastub_headers)
  file(WRITE ${dir}/${lib}.c "#include \"${lib}_stub.h\"\nint main(void) { return 0; }\n")
  # the stub's own folders (stubs/interop: the GL, EGL and VDPAU
  # stand-ins the runtime and driver stubs use), then the CUDA headers
  cudastub_table_folders(tables ${folder}/generated ${major})
  set(includes ${folder} ${folder}/generated ${tables}
    ${PROJECT_SOURCE_DIR}/stubs/common ${PROJECT_SOURCE_DIR}/stubs/interop
    ${PROJECT_SOURCE_DIR}/include ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS})
  # try_compile caches its result: forget it, so that headers added or
  # removed since are seen on the next configure
  unset(cudastub_headers_${lib} CACHE)
  try_compile(cudastub_headers_${lib} ${dir}/build-${lib} SOURCES ${dir}/${lib}.c
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${includes}"
    COMPILE_DEFINITIONS -D_GNU_SOURCE -DCUDASTUB_NO_UNIFIED_API
      -DCUDASTUB_ABI_MAJOR=${major} -DCUDASTUB_ABI_MINOR=${minor}
    C_STANDARD 11
    OUTPUT_VARIABLE log)
  set(result "")
  if(NOT cudastub_headers_${lib})
    # GCC: "fatal error: x.h: No such file or directory"; Clang: "'x.h' file not found"
    if(log MATCHES "fatal error: ([^:\n]+): No such file or directory")
      set(result ${CMAKE_MATCH_1})
    elseif(log MATCHES "fatal error: '([^'\n]+)' file not found")
      set(result ${CMAKE_MATCH_1})
    elseif(log MATCHES "error: ([^\n]*)")
      set(result "(${CMAKE_MATCH_1})")
    else()
      set(result "(the compiler failed)")
    endif()
  endif()
  unset(cudastub_headers_${lib} CACHE)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The reason a library whose spec has no SONAME for the headers' major is
# skipped. Where the headers lack its header too (nvJPEG, nvFatbin and
# cuFile with the CUDA 13 toolkit, which records none of them here), the
# reason names the header, who ships it, and the majors that build it.
function(_cudastub_unrecorded_major lib out)
  set(name ${cudastub_${lib}_alias})
  set(majors)
  foreach(major ${cudastub_majors})
    if(cudastub_${lib}_soname_${major})
      list(APPEND majors ${major})
    endif()
  endforeach()
  set(reason "cudastub records no ${name} library of CUDA ${CUDASTUB_ABI_MAJOR}")
  file(STRINGS ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder}/${lib}.spec header REGEX "^header ")
  string(REGEX MATCH "^header ([^ ;]+)" header "${header}")
  set(header ${CMAKE_MATCH_1})
  set(found FALSE)
  foreach(dir IN LISTS CUDASTUB_CUDA_INCLUDE_DIR CUDASTUB_EXTRA_INCLUDE_DIRS)
    if(EXISTS ${dir}/${header})
      set(found TRUE)
    endif()
  endforeach()
  if(majors AND NOT found)
    list(GET majors 0 newest)
    _cudastub_header_packages(${lib} packages ${newest})
    list(JOIN majors " or " listed)
    string(CONCAT reason "its header ${header} is not in ${CUDASTUB_CUDA_INCLUDE_DIR}, and "
      "${reason}: configure a build against CUDA ${listed} headers that have it (from "
      "${packages}; -DCUDASTUB_EXTRA_INCLUDE_DIRS=<folder> adds a folder of its own)")
  endif()
  set(${out} "${reason}" PARENT_SCOPE)
endfunction()

function(cudastub_select_libraries)
  set(names)
  foreach(lib IN LISTS cudastub_libraries)
    list(APPEND names ${cudastub_${lib}_alias})
  endforeach()
  list(JOIN names ", " known)
  # the libraries asked for by name, checked before any is compiled
  set(asked)
  foreach(name IN LISTS CUDASTUB_LIBRARIES)
    cudastub_library_of("${name}" lib)
    if(NOT lib)
      message(FATAL_ERROR "cudastub: CUDASTUB_LIBRARIES names \"${name}\", which is no "
        "library of cudastub. Its libraries are: ${known}.")
    endif()
    list(APPEND asked ${lib})
  endforeach()

  set(built)
  foreach(lib IN LISTS cudastub_libraries)
    set(name ${cudastub_${lib}_alias})
    set(reason "")
    set(soname "${cudastub_${lib}_soname_${CUDASTUB_ABI_MAJOR}}${cudastub_${lib}_soname_any}")
    _cudastub_build_abi(${lib} major minor)
    set(cudastub_${lib}_abi_major ${major} PARENT_SCOPE)
    set(cudastub_${lib}_abi_minor ${minor} PARENT_SCOPE)
    if(CUDASTUB_LIBRARIES AND NOT lib IN_LIST asked)
      set(reason "it is not in CUDASTUB_LIBRARIES")
    elseif(NOT soname)
      _cudastub_unrecorded_major(${lib} reason)
    elseif(NOT major)
      set(reason "cudastub has no record of its CUDA ${CUDASTUB_ABI_MAJOR} headers")
    else()
      _cudastub_check_headers(${lib} ${major} ${minor} missing)
      if(missing)
        _cudastub_header_packages(${lib} packages)
        set(where ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS})
        list(JOIN where " or " where)
        string(CONCAT reason "its header ${missing} is not in ${where} "
          "(it comes with ${packages}; CUDASTUB_EXTRA_INCLUDE_DIRS may name its folder)")
      endif()
    endif()
    if(reason AND lib IN_LIST asked)
      message(FATAL_ERROR "cudastub: ${name} is in CUDASTUB_LIBRARIES, but cannot be "
        "built: ${reason}. Install it, point -DCUDAToolkit_ROOT=<prefix> at CUDA headers "
        "that have it, or leave ${name} out of CUDASTUB_LIBRARIES.")
    endif()
    # the first header of its spec: the one the package config looks for
    file(STRINGS ${PROJECT_SOURCE_DIR}/stubs/${cudastub_${lib}_folder}/${lib}.spec header
      REGEX "^header ")
    string(REGEX MATCH "^header ([^ ;]+)" header "${header}")
    set(cudastub_${lib}_header ${CMAKE_MATCH_1} PARENT_SCOPE)
    if(reason)
      message(STATUS "cudastub: ${name}: skipped, ${reason}")
      set(cudastub_${lib}_skipped "${reason}" PARENT_SCOPE)
    else()
      message(STATUS "cudastub: ${name}: built")
      list(APPEND built ${lib})
    endif()
  endforeach()
  set(cudastub_built_libraries ${built} PARENT_SCOPE)
endfunction()
