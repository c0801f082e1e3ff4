"""cudademo: a wheel whose C extension launches a CUDA kernel and calls NVRTC
through the cudastub stubs, which it ships. Built with Debian's setuptools,
wheel and pip, with the cudastub wheel as its build dependency
(pyproject.toml), which says where cudastub's CMake package is:

    python3 -m pip wheel --no-build-isolation --no-deps -w dist examples/wheel

CUDASTUB_PREFIX, when set, names a cudastub install prefix instead
(cmake --install build --prefix /opt/cudastub).
"""

import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def cudastub_prefix():
    """The installed cudastub wheel's prefix (its package folder)."""
    import cudastub  # the build dependency; imported only when building

    return cudastub.prefix()


class CMakeBuild(build_ext):
    """Builds the module with CMake (CUDA and the cudastub package) and
    installs it, with the stubs, into the package folder of build_lib."""

    def build_extension(self, ext):
        package_dir = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        build = os.path.abspath(self.build_temp)
        prefix = os.environ.get("CUDASTUB_PREFIX") or cudastub_prefix()
        # pip runs this file in another folder than the user's ($PWD)
        prefix = os.path.join(os.environ.get("PWD", os.getcwd()), prefix)
        subprocess.check_call([
            "cmake", "-S", HERE, "-B", build,
            "-DCMAKE_PREFIX_PATH=" + prefix,
            "-DCMAKE_INSTALL_PREFIX=" + os.path.dirname(package_dir),
            "-DPython3_EXECUTABLE=" + sys.executable,
        ])
        subprocess.check_call(["cmake", "--build", build])
        subprocess.check_call(["cmake", "--install", build])


setup(
    name="cudademo",
    version="0.1.0",
    description="A CUDA extension that imports without CUDA, through cudastub",
    packages=["cudademo"],
    ext_modules=[Extension("cudademo._native", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
