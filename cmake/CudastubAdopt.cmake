# Adopts cudastub in a CMake project with no edit to it:
#
#   cmake -S project -B build \
#     -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<prefix>/lib/cmake/cudastub/CudastubAdopt.cmake
#
# (`python3 -m cudastub --adopt` prints that path). CMake reads this file
# at the project's first project() call. It finds this cudastub (the
# package beside it) and, once the top-level directory has been read,
# goes through every target the project defines: each link to NVIDIA's
# libraries, whether a CUDA:: target of find_package(CUDAToolkit), a path
# from the legacy find_package(CUDA) variables (CUDA_LIBRARIES,
# CUDA_CUDART_LIBRARY, CUDA_CUDA_LIBRARY, CUDA_CUBLAS_LIBRARIES, ...) or
# find_library(), or a bare name, becomes the stub of the ABI of the CUDA
# the project found, and a target with CUDA sources links the runtime stub
# in place of nvcc's runtime (CudastubSwap.cmake). Every target that links
# a stub then finds it through $ORIGIN, and installing the project copies
# the stubs beside each file of such a target it installs.
#
# A library with no stub in this cudastub is left as the project linked
# it, and the configuration says which (a warning, not an error: the
# project is not the adopter's to edit).
include_guard(GLOBAL)
set(_cudastub_adopt_dir ${CMAKE_CURRENT_LIST_DIR})

# Every target of a directory and of those below it.
function(_cudastub_adopt_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _cudastub_adopt_targets(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

# At install time, in the project's install script: each installed file of
# the target (by its name, among what the install wrote so far) gets the
# stubs beside it.
function(_cudastub_adopt_install target stubs)
  set(files "")
  foreach(stub IN LISTS stubs)
    string(APPEND files " \"$<TARGET_FILE:${stub}>\"")
  endforeach()
  install(CODE "
    foreach(_cudastub_file IN LISTS CMAKE_INSTALL_MANIFEST_FILES)
      get_filename_component(_cudastub_name \"\${_cudastub_file}\" NAME)
      if(_cudastub_name STREQUAL \"$<TARGET_FILE_NAME:${target}>\")
        get_filename_component(_cudastub_dir \"\${_cudastub_file}\" DIRECTORY)
        if(DEFINED ENV{DESTDIR} AND NOT \"\$ENV{DESTDIR}\" STREQUAL \"\")
          string(LENGTH \"\$ENV{DESTDIR}\" _cudastub_len)
          string(SUBSTRING \"\${_cudastub_dir}\" \${_cudastub_len} -1 _cudastub_dir)
        endif()
        file(INSTALL ${files} DESTINATION \"\${_cudastub_dir}\")
      endif()
    endforeach()")
endfunction()

# The stubs a program or shared library links: its own, and those of the
# static, object and interface libraries of the project it links, which
# reach its link line.
function(_cudastub_reached_stubs target out)
  set(stubs)
  set(seen ${target})
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue current)
    if(current STREQUAL target)
      get_target_property(items ${current} LINK_LIBRARIES)
    else()
      get_target_property(items ${current} INTERFACE_LINK_LIBRARIES)
    endif()
    foreach(item IN LISTS items)
      if(item MATCHES "^\\$<LINK_ONLY:([^<>]+)>$")
        set(item ${CMAKE_MATCH_1})
      endif()
      if(item MATCHES "^cudastub::")
        list(APPEND stubs ${item})
      elseif(TARGET ${item} AND NOT item IN_LIST seen)
        get_target_property(type ${item} TYPE)
        get_target_property(imported ${item} IMPORTED)
        list(APPEND seen ${item})
        if(NOT imported AND type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|INTERFACE_LIBRARY)$")
          list(APPEND queue ${item})
        endif()
      endif()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES stubs)
  set(${out} "${stubs}" PARENT_SCOPE)
endfunction()

# Everything waits for the end of the top-level directory: at project()
# the platform is not yet known to support shared libraries (the stubs
# would be imported as static), and the project has not yet found its
# CUDA, whose major is the stubs' ABI. The stubs' targets are global, so
# that every directory's targets see them.
function(_cudastub_adopt_all)
  set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL TRUE)
  find_package(cudastub CONFIG REQUIRED NO_DEFAULT_PATH PATHS ${_cudastub_adopt_dir})
  _cudastub_read_libraries()
  _cudastub_link_abi(abi)
  _cudastub_adopt_targets(${CMAKE_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY|STATIC_LIBRARY|OBJECT_LIBRARY|INTERFACE_LIBRARY)$")
      continue()
    endif()
    cudastub_swap_links(${target} "${abi}" stubs left)
    foreach(item IN LISTS left)
      message(WARNING "cudastub: ${target} keeps NVIDIA's ${item}: this cudastub has no stub "
        "of it")
    endforeach()
  endforeach()
  # what is loaded at run time: programs and shared libraries find their
  # stubs beside them, wherever they are installed
  set(adopted 0)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    _cudastub_reached_stubs(${target} stubs)
    if(NOT stubs)
      continue()
    endif()
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "$ORIGIN")
    _cudastub_adopt_install(${target} "${stubs}")
    math(EXPR adopted "${adopted} + 1")
  endforeach()
  message(STATUS "cudastub: ${adopted} targets link the stubs of the CUDA ${abi} ABI")
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _cudastub_adopt_all)
