"""The build hook behind ``pip install bindings/python``: from a checkout it compiles
libtrainsize (../../lib, ../../include: C11, libc and libm only) into the package, so the
installed package carries its library and needs no separate CMake step. Everything else
is in pyproject.toml.

Skipped, with the library then found at run time ($LIBTRAINSIZE, the system's path), when
the package directory already holds a libtrainsize.so* (one copied there is shipped as
is), when the C sources are not there (building from an sdist), or when
TRAINSIZE_SKIP_LIBRARY=1. CC picks the compiler (default: cc).
"""
import glob
import os
import re
import shlex
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def abi_version(header):
    with open(header, encoding="utf-8") as f:
        found = re.search(r"^#define TRAINSIZE_ABI_VERSION (\d+)", f.read(), re.M)
    if not found:
        raise RuntimeError("%s: no TRAINSIZE_ABI_VERSION" % header)
    return int(found.group(1))


class BuildPyWithLibrary(build_py):
    """build_py, then the shared library next to the package's modules."""

    def run(self):
        super().run()
        header = os.path.join(ROOT, "include", "trainsize.h")
        sources = sorted(glob.glob(os.path.join(ROOT, "lib", "*.c")))
        shipped = glob.glob(os.path.join(HERE, "trainsize", "libtrainsize.so*"))
        if os.environ.get("TRAINSIZE_SKIP_LIBRARY") == "1" or shipped or not sources or \
                not os.path.exists(header):
            return
        abi = abi_version(header)
        out = os.path.join(self.build_lib, "trainsize", "libtrainsize.so.%d" % abi)
        cmd = shlex.split(os.environ.get("CC", "cc")) + [
            "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
            "-DTRAINSIZE_BUILDING", "-I" + os.path.join(ROOT, "include"),
            "-I" + os.path.join(ROOT, "lib"), *sources, "-lm",
            "-Wl,-soname,libtrainsize.so.%d" % abi, "-o", out]
        self.announce("building libtrainsize: " + " ".join(cmd[:6]) + " ...", level=2)
        subprocess.run(cmd, check=True)


setup(cmdclass={"build_py": BuildPyWithLibrary})
