"""The mxsim CLI for the tests that compare the package with it (one copy for every test file)."""
import os
import subprocess

import pytest

import mxsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def cli_path():
    for c in (os.environ.get("MXSIM_CLI"), mxsim.cli_path(), os.path.join(ROOT, "build", "mxsim")):
        if c and os.path.exists(c):
            return os.path.abspath(c)
    pytest.skip("no mxsim CLI (set MXSIM_CLI)")


def cli_run(*args, cwd=None):
    return subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True, cwd=cwd)


def cli(*args, cwd=None):
    r = cli_run(*args, cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout
