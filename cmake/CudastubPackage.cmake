# find_package(cudastub) support: cudastub::nvrtc (and the other stubs as
# they are added) for code that links a stub where it linked CUDA.
include(CMakePackageConfigHelpers)
install(EXPORT cudastubTargets NAMESPACE cudastub:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cudastub)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cudastubConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cudastub)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cudastubConfig.cmake
  ${PROJECT_BINARY_DIR}/cudastubConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cudastub)
