"""Grammar-aware fuzzing of the EPL front end and runtime (see tests/fuzz/__main__.py)."""
