"""Shared by every test folder: pytest puts this folder on sys.path, so `recording` imports.

Under CI (the CI environment variable set) hypothesis runs derandomized: the same examples
every run, so a landing never depends on a lucky draw; locally it explores new examples."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
