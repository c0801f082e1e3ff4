"""Builds the cudastub wheel. The package folder is cudastub's install
prefix (bin/cudastub, lib/lib*_stub_cu*.so and libcudastub_cu*.so,
lib/cmake/cudastub, lib/pkgconfig, include/), so that a prefix path
naming it is all CMake needs.

    python3 -m pip wheel --no-build-isolation --no-deps -w dist python/

Variables:
  CUDASTUB_SOURCE_DIR the cudastub source tree (default: this folder's parent)
  CUDASTUB_BUILD_DIR  an already configured and built cudastub build tree:
                      installed from, not built again (the test suite's)
  CMAKE_ARGS          more configure options for the build made here
                      (-DCUDASTUB_LIBRARIES=..., -DCUDAToolkit_ROOT=...)
  CMAKE_BUILD_PARALLEL_LEVEL  as for cmake --build
"""

import os
import re
import shlex
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CUDASTUB_SOURCE_DIR") or os.path.dirname(HERE)


def project_version():
    """The version CMake's project() names, so the two never differ."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(cudastub\s+VERSION\s+([0-9.]+)", f.read())
    if not found:
        raise RuntimeError("cudastub: no project(cudastub VERSION ...) in CMakeLists.txt")
    return found.group(1)


class BuildWithCMake(build_py):
    """Copies the Python files, then installs cudastub into the package
    folder: stripped stubs (cmake --install strips them), the command,
    the CMake package and the pkg-config files."""

    def run(self):
        super().run()
        prefix = os.path.join(os.path.abspath(self.build_lib), "cudastub")
        tree = os.environ.get("CUDASTUB_BUILD_DIR")
        if not tree:
            tree = os.path.join(os.path.abspath(self.build_lib), "..", "cudastub-cmake")
            subprocess.check_call(
                ["cmake", "-S", ROOT, "-B", tree,
                 "-DCMAKE_BUILD_TYPE=Release", "-DCUDASTUB_BUILD_TESTS=OFF",
                 "-DCUDASTUB_INSTALL=ON"]
                + shlex.split(os.environ.get("CMAKE_ARGS", "")))
            subprocess.check_call(["cmake", "--build", tree])
        # lib, not GNUInstallDirs' multiarch folder: the package's layout is
        # the same on every machine
        subprocess.check_call(["cmake", "--install", tree, "--prefix", prefix])


class BinaryDistribution(Distribution):
    """The wheel holds machine code: a platform tag, not a pure wheel."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """Any Python 3 on this platform: nothing is a Python extension."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(
    version=project_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildWithCMake, "bdist_wheel": PlatformWheel},
    zip_safe=False,
)
