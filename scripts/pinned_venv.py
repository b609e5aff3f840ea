"""Runs a script inside its own virtual environment with one pinned PyPI package.

The environment lives under ~/.cache/hydra/ (HYDRA_CACHE), outside the repository; it is created
on first use (pip, from PyPI) and the package reinstalled when its version differs. Used by the
comparison scripts next to this file, which call `reexec_in_venv` first thing in main().

    python3 scripts/pinned_venv.py VENV_NAME PACKAGE VERSION

makes the environment and prints its interpreter (exit 1 when it cannot be made, e.g. without
network); the tests use it to skip, rather than fail, where PyPI cannot be reached.
"""

import os
import subprocess
import sys
import venv


def venv_path(venv_name):
    return os.path.join(os.environ.get("HYDRA_CACHE", os.path.expanduser("~/.cache/hydra")), venv_name)


def ensure_venv(venv_name, package, version):
    """The pinned venv's interpreter, creating the venv or reinstalling the package when needed."""
    path = venv_path(venv_name)
    python = os.path.join(path, "bin", "python")
    if not os.path.exists(python):
        print(f"[pinned_venv] creating {path} with {package}=={version}", file=sys.stderr)
        venv.create(path, with_pip=True)
    check = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version('{package}'))"],
                           capture_output=True, text=True)
    if check.returncode != 0 or check.stdout.strip() != version:
        subprocess.run([python, "-m", "pip", "install", "-q", f"{package}=={version}"], check=True)
    return python


def reexec_in_venv(script, venv_name, package, version):
    """Re-executes `script` with its arguments inside the pinned venv, creating it when needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(venv_path(venv_name)):
        return
    python = ensure_venv(venv_name, package, version)
    os.execv(python, [python, os.path.abspath(script)] + sys.argv[1:])


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit("usage: pinned_venv.py VENV_NAME PACKAGE VERSION")
    try:
        print(ensure_venv(*sys.argv[1:]))
    except (subprocess.CalledProcessError, OSError) as e:
        raise SystemExit(f"pinned_venv: cannot make {venv_path(sys.argv[1])} with {sys.argv[2]}=={sys.argv[3]}: {e}")
