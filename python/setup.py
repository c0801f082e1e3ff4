"""Builds the cudastub wheel. The package folder is cudastub's install
prefix (bin/cudastub, lib/lib*_stub_cu*.so and libcudastub_cu*.so,
lib/cmake/cudastub, lib/pkgconfig, include/), so that a prefix path
naming it is all CMake needs. A zip holds no links, so nothing is stored
twice: the shims are left out (`cudastub shim DIR` makes them from the
stubs), and each link name is a linker script naming its stub.

    python3 -m pip wheel --no-build-isolation --no-deps -w dist python/

Variables:
  CUDASTUB_SOURCE_DIR the cudastub source tree (default: this folder's parent)
  CUDASTUB_BUILD_DIR  an already configured and built cudastub build tree:
                      installed from, not built again (the test suite's)
  CMAKE_ARGS          more configure options for the build made here
                      (-DCUDASTUB_LIBRARIES=..., -DCUDAToolkit_ROOT=...)
  CMAKE_BUILD_PARALLEL_LEVEL  as for cmake --build
A relative path in CUDASTUB_SOURCE_DIR or CUDASTUB_BUILD_DIR is taken from
the folder pip was run in ($PWD), not from python/.
"""

import os
import platform
import re
import shlex
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:
        sys.exit("cudastub: building the wheel needs the wheel package (python3 -m pip "
                 "install wheel, or apt-get install python3-wheel), which this Python "
                 "(%s) lacks" % sys.executable)

HERE = os.path.dirname(os.path.abspath(__file__))


def from_pwd(variable):
    """The path the environment variable names, a relative one taken from
    the folder pip was run in ($PWD: pip runs this file in another), or
    None when it is unset."""
    path = os.environ.get(variable)
    if path and not os.path.isabs(path):
        path = os.path.join(os.environ.get("PWD", os.getcwd()), path)
    return path or None


ROOT = from_pwd("CUDASTUB_SOURCE_DIR") or os.path.dirname(HERE)


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
        tree = from_pwd("CUDASTUB_BUILD_DIR")
        if not tree:
            tree = os.path.join(os.path.abspath(self.build_lib), "..", "cudastub-cmake")
            subprocess.check_call(
                ["cmake", "-S", ROOT, "-B", tree,
                 "-DCMAKE_BUILD_TYPE=Release", "-DCUDASTUB_BUILD_TESTS=OFF",
                 "-DCUDASTUB_INSTALL=ON"]
                + shlex.split(os.environ.get("CMAKE_ARGS", "")))
            subprocess.check_call(["cmake", "--build", tree])
        # lib, not GNUInstallDirs' multiarch folder: the package's layout is
        # the same on every machine. Every component but the shims: a zip
        # holds no links, so they would be second copies of the stubs;
        # `cudastub shim DIR` makes them from the stubs where wanted.
        subprocess.check_call(["cmake", "--install", tree, "--prefix", prefix,
                               "--component", "Unspecified"])
        link_names_as_scripts(os.path.join(prefix, "lib"))
        self.distribution.newest_glibc = newest_glibc(prefix)


def link_names_as_scripts(lib):
    """Each link name (libcudart_stub_cu13.so -> libcudart_stub_cu13-<tag>.so),
    which a zip would store as a second copy of the stub, becomes a linker
    script naming its file: -lcudart_stub_cu13 links the same, the program
    needs the tagged SONAME as before, and the wheel holds each stub once."""
    for name in sorted(os.listdir(lib)):
        path = os.path.join(lib, name)
        target = os.readlink(path) if os.path.islink(path) else ""
        if target and "/" not in target and name.endswith(".so"):
            os.unlink(path)
            with open(path, "w", encoding="ascii") as f:
                f.write("/* the link name of %s, which it links */\nINPUT(%s)\n"
                        % (target, target))


def newest_glibc(prefix):
    """The newest glibc symbol version any ELF file under prefix imports,
    as (major, minor); None where objdump cannot tell."""
    newest = (0, 0)
    for folder, _, names in os.walk(prefix):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            try:
                dump = subprocess.run(["objdump", "-T", path], check=True,
                                      capture_output=True, text=True).stdout
            except (OSError, subprocess.CalledProcessError):
                return None
            for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", dump):
                newest = max(newest, (int(major), int(minor)))
    return newest


class BinaryDistribution(Distribution):
    """The wheel holds machine code: a platform tag, not a pure wheel."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """Any Python 3 on this platform: nothing is a Python extension. On
    x86-64 and aarch64 Linux, where every file imports nothing of glibc
    newer than 2.17 (what the build's glibc floor gives, checked on the
    files themselves), the tag is manylinux2014's."""

    def get_tag(self):
        _, _, plat = super().get_tag()
        machine = platform.machine()
        newest = getattr(self.distribution, "newest_glibc", None)
        if (plat.startswith("linux_") and machine in ("x86_64", "aarch64")
                and newest is not None and newest <= (2, 17)):
            plat = "manylinux_2_17_%s.manylinux2014_%s" % (machine, machine)
        return "py3", "none", plat


setup(
    version=project_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildWithCMake, "bdist_wheel": PlatformWheel},
    zip_safe=False,
)
