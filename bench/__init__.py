"""Benchmarks of epl-engine beside hand-written Python loops doing the same work (`python -m bench`)."""
