"""Where the installed cudastub files are, for build tools.

The package folder is cudastub's install prefix:

    cmake_dir()   lib/cmake/cudastub, for find_package(cudastub) (or put
                  prefix() on CMAKE_PREFIX_PATH; scikit-build-core does so
                  through the cmake.prefix entry point)
    adopt_file()  lib/cmake/cudastub/CudastubAdopt.cmake, for
                  -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES: a project adopted
                  with no edit
    stub_dir()    lib/, the stubs (libcudart_stub_cu13.so, ...), to ship in a wheel
    include_dir() include/, cudastub's own headers
    pkgconfig_dir() lib/pkgconfig, for PKG_CONFIG_PATH
    command()     bin/cudastub, the info and patch command

`python -m cudastub --cmakedir` prints the same from the command line.
"""

import os

__all__ = ["prefix", "cmake_dir", "stub_dir", "include_dir", "pkgconfig_dir", "command"]


def prefix():
    return os.path.dirname(os.path.abspath(__file__))


def cmake_dir():
    return os.path.join(prefix(), "lib", "cmake", "cudastub")


def adopt_file():
    return os.path.join(cmake_dir(), "CudastubAdopt.cmake")


def stub_dir():
    return os.path.join(prefix(), "lib")


def include_dir():
    return os.path.join(prefix(), "include")


def pkgconfig_dir():
    return os.path.join(prefix(), "lib", "pkgconfig")


def command():
    return os.path.join(prefix(), "bin", "cudastub")
