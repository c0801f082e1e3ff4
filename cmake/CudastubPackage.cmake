# What `cmake --install` adds for consumers: the CMake package
# (find_package(cudastub CONFIG): every ABI's targets, the consumer's ABI's
# under FindCUDAToolkit's names, cudastub_link()) and pkg-config files, one
# a stub and ABI (cudastub-cudart-cu13.pc, ...) and one a stub for the
# build's ABI (cudastub-cudart.pc), each finding its prefix from its own
# place, wherever the tree is installed or unpacked.
include(CMakePackageConfigHelpers)
set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cudastub)
# What the config needs to know of this build: each library's ABIs
set(cudastub_config_facts "")
foreach(lib IN LISTS cudastub_libraries)
  if(cudastub_${lib}_built_abis)
    string(APPEND cudastub_config_facts
      "set(cudastub_${lib}_built_abis ${cudastub_${lib}_built_abis})\n")
  endif()
endforeach()
install(EXPORT cudastubTargets NAMESPACE cudastub:: DESTINATION ${package_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cudastubConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  ${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubLink.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubSwap.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubAdopt.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CudastubNames.cmake
  DESTINATION ${package_dir})
install(FILES ${CUDASTUB_GENERATED}/cmake/libraries.cmake
  DESTINATION ${package_dir} RENAME CudastubLibraries.cmake)

# pkg-config: the prefix is found from the .pc file's own place
file(RELATIVE_PATH pc_to_prefix "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
foreach(lib IN LISTS cudastub_built_libraries)
  foreach(abi IN LISTS cudastub_${lib}_built_abis)
    set(pc_stub ${lib})
    set(pc_abi ${abi})
    set(pc_name cudastub-${lib}-cu${abi})
    configure_file(${PROJECT_SOURCE_DIR}/cmake/cudastub.pc.in
      ${PROJECT_BINARY_DIR}/pkgconfig/${pc_name}.pc @ONLY)
    set(files ${PROJECT_BINARY_DIR}/pkgconfig/${pc_name}.pc)
    if(abi EQUAL CUDASTUB_ABI)
      set(pc_name cudastub-${lib})
      configure_file(${PROJECT_SOURCE_DIR}/cmake/cudastub.pc.in
        ${PROJECT_BINARY_DIR}/pkgconfig/${pc_name}.pc @ONLY)
      list(APPEND files ${PROJECT_BINARY_DIR}/pkgconfig/${pc_name}.pc)
    endif()
    install(FILES ${files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endforeach()
endforeach()
