"""Shared by every test folder: pytest puts this folder on sys.path, so `recording` imports.

Under CI (the CI environment variable set) hypothesis runs derandomized: the same examples
every run, so a landing never depends on a lucky draw; locally it explores new examples."""
import os

from hypothesis import settings

# The project's own pytest plugin (fixtures epl_engine, epl_recorder, ...): loaded through its
# entry point once the package is installed, else (a checkout on PYTHONPATH) from here. The
# entry point has the module's name, so pytest registers it once either way.
pytest_plugins = ["engine.pytest_plugin"]

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
