# What `cmake --install` adds for consumers: the CMake package
# (find_package(cudastub CONFIG): cudastub::cudart, cudastub::nvrtc,
# cudastub::cuda_driver and every library's, cudastub_link()) and one
# pkg-config file a stub (cudastub-cudart.pc, cudastub-nvrtc.pc,
# cudastub-cuda.pc, cudastub-<lib>.pc).
include(CMakePackageConfigHelpers)
set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cudastub)
# What the config needs to know of this build, for its COMPONENTS: each
# library's first header and, for one not built, why (CudastubSelect.cmake)
set(cudastub_config_facts "")
foreach(lib IN LISTS cudastub_libraries)
  string(APPEND cudastub_config_facts "set(cudastub_${lib}_header ${cudastub_${lib}_header})\n")
  if(cudastub_${lib}_skipped)
    string(REPLACE "\"" "\\\"" why "${cudastub_${lib}_skipped}")
    string(APPEND cudastub_config_facts "set(cudastub_${lib}_skipped \"${why}\")\n")
  endif()
endforeach()
# the folders headers are looked for in: the CUDA headers', then those of
# headers the toolkit lacks (CUDASTUB_EXTRA_INCLUDE_DIRS: nvml.h's)
set(cudastub_config_header_dirs ${CUDASTUB_CUDA_INCLUDE_DIR} ${CUDASTUB_EXTRA_INCLUDE_DIRS})
install(EXPORT cudastubTargets NAMESPACE cudastub:: DESTINATION ${package_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cudastubConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  ${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubLink.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubNames.cmake
  DESTINATION ${package_dir})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/generated/libraries.cmake
  DESTINATION ${package_dir} RENAME CudastubLibraries.cmake)

# pkg-config: the headers' folder is recorded, as in the CMake package; the
# prefix is found from the .pc file's own place, wherever it is installed
file(RELATIVE_PATH pc_to_prefix "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
set(pc_extra_cflags "")
foreach(dir IN LISTS CUDASTUB_EXTRA_INCLUDE_DIRS)
  string(APPEND pc_extra_cflags " -I${dir}")
endforeach()
foreach(stub IN LISTS cudastub_libraries)
  if(TARGET ${stub}_stub)
    set(pc_stub ${stub})
    configure_file(${PROJECT_SOURCE_DIR}/cmake/cudastub.pc.in
      ${PROJECT_BINARY_DIR}/pkgconfig/cudastub-${stub}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/cudastub-${stub}.pc
      DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endif()
endforeach()
