"""Thread defaults: waiting OpenMP threads sleep unless the user chose otherwise."""

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(("given", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_import_sets_a_passive_wait_policy_unless_set(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given
    code = "import os, heist_envs; print(os.environ['OMP_WAIT_POLICY'])"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected
