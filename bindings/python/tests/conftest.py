"""Test setup: the package from this source tree, the library and the command from the
environment (LIBTRAINSIZE, TRAINSIZE_EXE). Missing variables fail the run; nothing is
skipped."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)  # bindings/python

_missing = [v for v in ("LIBTRAINSIZE", "TRAINSIZE_EXE") if not os.environ.get(v)]
if _missing:
    pytest.exit("set %s (the built libtrainsize.so and the trainsize command), e.g. "
                "LIBTRAINSIZE=build/libtrainsize.so TRAINSIZE_EXE=build/programs/trainsize"
                % " and ".join(_missing), returncode=2)

if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)
