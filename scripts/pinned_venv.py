"""Runs a script inside its own virtual environment with one pinned PyPI package.

The environment lives under ~/.cache/hydra/ (HYDRA_CACHE), outside the repository; it is created
on first use (pip, from PyPI) and the package reinstalled when its version differs. Used by the
comparison scripts next to this file, which call `reexec_in_venv` first thing in main().
"""

import os
import subprocess
import sys
import venv


def reexec_in_venv(script, venv_name, package, version):
    """Re-executes `script` with its arguments inside the pinned venv, creating it when needed."""
    path = os.path.join(os.environ.get("HYDRA_CACHE", os.path.expanduser("~/.cache/hydra")), venv_name)
    python = os.path.join(path, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(path):
        return
    if not os.path.exists(python):
        print(f"[{os.path.basename(script)}] creating {path} with {package}=={version}", file=sys.stderr)
        venv.create(path, with_pip=True)
    check = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version('{package}'))"],
                           capture_output=True, text=True)
    if check.returncode != 0 or check.stdout.strip() != version:
        subprocess.run([python, "-m", "pip", "install", "-q", f"{package}=={version}"], check=True)
    os.execv(python, [python, os.path.abspath(script)] + sys.argv[1:])
