"""Shared by every test folder: pytest puts this folder on sys.path, so `recording` imports."""
