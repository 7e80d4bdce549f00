"""The build backend behind ``pip install bindings/python`` (PEP 517, in-tree: standard
library only, so a fresh venv installs it with ``--no-index`` and nothing else).

From a checkout it compiles libtrainsize (../../lib, ../../include: C11, libc and libm
only) with the C compiler (``cc``, or ``$CC``) into the wheel as
``trainsize/libtrainsize.so.<ABI>``, so the installed package carries its library. It
compiles nothing, and the library is then found at run time ($LIBTRAINSIZE, the system's
path), when the package directory already holds a ``libtrainsize.so*`` (one copied there
is shipped as is), when the C sources are not there (building from an sdist), or with
``TRAINSIZE_SKIP_LIBRARY=1``. The project's name, version and summary are pyproject.toml's.
"""
import base64
import glob
import hashlib
import io
import os
import re
import shlex
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bindings/python
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PACKAGE = "trainsize"


def _project():
    """name, version, summary and requires-python from pyproject.toml's [project]."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]

    def key(name):
        found = re.search(r'^%s\s*=\s*"([^"]*)"' % re.escape(name), section, re.M)
        if not found:
            raise RuntimeError("pyproject.toml: [project] has no %s" % name)
        return found.group(1)
    return key("name"), key("version"), key("description"), key("requires-python")


def _abi_version(header):
    with open(header, encoding="utf-8") as f:
        found = re.search(r"^#define TRAINSIZE_ABI_VERSION (\d+)", f.read(), re.M)
    if not found:
        raise RuntimeError("%s: no TRAINSIZE_ABI_VERSION" % header)
    return int(found.group(1))


def _build_library(out_dir):
    """The shared library into out_dir, or None when it is not ours to build."""
    header = os.path.join(ROOT, "include", "trainsize.h")
    sources = sorted(glob.glob(os.path.join(ROOT, "lib", "*.c")))
    shipped = glob.glob(os.path.join(HERE, PACKAGE, "libtrainsize.so*"))
    if os.environ.get("TRAINSIZE_SKIP_LIBRARY") == "1" or shipped or not sources or \
            not os.path.exists(header):
        return None
    abi = _abi_version(header)
    name = "libtrainsize.so.%d" % abi
    cmd = shlex.split(os.environ.get("CC", "cc")) + [
        "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
        "-DTRAINSIZE_BUILDING", "-I" + os.path.join(ROOT, "include"),
        "-I" + os.path.join(ROOT, "lib"), *sources, "-lm",
        "-Wl,-soname," + name, "-o", os.path.join(out_dir, name)]
    subprocess.run(cmd, check=True)
    return name


def _metadata(name, version, summary, python):
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: %s\n"
            "Classifier: Programming Language :: Python :: 3\n"
            "Classifier: Operating System :: POSIX :: Linux\n"
            "Description-Content-Type: text/markdown\n\n%s" % (name, version, summary, python, readme))


def _package_files():
    """The package's own files (modules and a shipped library), relative to HERE."""
    files = []
    for path in sorted(glob.glob(os.path.join(HERE, PACKAGE, "*"))):
        base = os.path.basename(path)
        if os.path.isfile(path) and (base.endswith(".py") or base.startswith("libtrainsize.so")):
            files.append(os.path.relpath(path, HERE))
    return files


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version, summary, python = _project()
    # a native library inside: a platform wheel, for any Python 3 (ctypes, no extension)
    tag = "py3-none-" + re.sub(r"[-.]", "_", sysconfig.get_platform())
    dist_info = "%s-%s.dist-info" % (name, version)
    wheel_name = "%s-%s-%s.whl" % (name, version, tag)
    record = []
    with tempfile.TemporaryDirectory() as tmp, \
            zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        def add(arcname, data, mode=0o644):
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
            record.append("%s,%s,%d" % (arcname, _digest(data), len(data)))
        for rel in _package_files():
            with open(os.path.join(HERE, rel), "rb") as f:
                add(rel.replace(os.sep, "/"), f.read(), 0o755 if ".so" in rel else 0o644)
        library = _build_library(tmp)
        if library:
            with open(os.path.join(tmp, library), "rb") as f:
                add("%s/%s" % (PACKAGE, library), f.read(), 0o755)
        add(dist_info + "/METADATA", _metadata(name, version, summary, python).encode("utf-8"))
        add(dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: trainsize_backend\n"
                                   "Root-Is-Purelib: false\nTag: %s\n" % tag).encode("ascii"))
        add(dist_info + "/top_level.txt", (PACKAGE + "\n").encode("ascii"))
        record.append(dist_info + "/RECORD,,")
        info = zipfile.ZipInfo(dist_info + "/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o100644) << 16
        whl.writestr(info, "\n".join(record) + "\n")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The binding's own files (no C sources: a wheel built from it finds its library at run
    time)."""
    name, version, _, _ = _project()
    base = "%s-%s" % (name, version)
    out = os.path.join(sdist_directory, base + ".tar.gz")
    members = ["pyproject.toml", "README.md", "_build_backend/trainsize_backend.py"] + _package_files()
    with tarfile.open(out, "w:gz") as tar:
        for rel in members:
            tar.add(os.path.join(HERE, rel), arcname="%s/%s" % (base, rel))
        pkg_info = _metadata(*_project()).encode("utf-8")
        info = tarfile.TarInfo("%s/PKG-INFO" % base)
        info.size = len(pkg_info)
        tar.addfile(info, io.BytesIO(pkg_info))
    return base + ".tar.gz"
