"""Regenerates the parser tables shipped with the package: `python -m epl.build_tables`
(also `make parser-tables`). Run it after changing anything in epl/grammar/ or the lexer's
tokens; tests/epl/test_parser_tables.py fails until the shipped tables fit the grammar."""
from __future__ import annotations

import sys

from .parser import SHIPPED_TABLES, write_tables


def main() -> int:
    write_tables(SHIPPED_TABLES)
    print(f"wrote {SHIPPED_TABLES}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
