# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench venv java clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,spark]'
	# bytecode up front: the first statement of every later process starts faster
	$(PY) -m compileall -q epl engine views filterindex pipeline >/dev/null
	touch $(STAMP)

venv: $(STAMP)

demo: java $(STAMP)
	$(VENV)/bin/epl run samples/withdrawals.epl samples/withdrawals.jsonl --time-field ts

test: java $(STAMP)
	$(PY) -m pytest -p no:cacheprovider -q

# After a change to epl/grammar/ or the lexer's tokens: rewrite the shipped LR tables
# (tests/epl/test_parser_tables.py fails until they fit the grammar).
parser-tables:
	$(if $(wildcard $(PY)),$(PY),$(PYTHON)) -m epl.build_tables

# The documentation site (mkdocs-material) from docs/ into site/.
docs: $(STAMP)
	$(PY) -m pip install -q -e '.[docs]'
	$(PY) -m mkdocs build --strict

# A wheel and an sdist in dist/.
dist: $(STAMP)
	$(PY) -m pip install -q build
	$(PY) -m build

.PHONY: parser-tables docs dist

# Spark needs a Java runtime: install Java 17 when there is none (apt-get, as root or via sudo).
java:
	@command -v java >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && \
	  $$SUDO apt-get install -y -q --no-install-recommends openjdk-17-jre-headless; }

bench: java $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache .hypothesis
