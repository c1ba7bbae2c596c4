# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench fuzz venv java clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,spark]'
	touch $(STAMP)

venv: $(STAMP)

demo: java $(STAMP)
	$(VENV)/bin/epl run samples/withdrawals.epl samples/withdrawals.jsonl --time-field ts

test: java $(STAMP)
	$(PY) -m pytest -p no:cacheprovider

# Spark needs a Java runtime: install Java 17 when there is none (apt-get, as root or via sudo).
java:
	@command -v java >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && \
	  $$SUDO apt-get install -y -q --no-install-recommends openjdk-17-jre-headless; }

bench: java $(STAMP)
	$(PY) -m bench

# The long fuzz run: 100,000 statements from the grammar and mutated conformance cases;
# prints the counts (compiled, ran, rejected with EPL errors, crashes) and the first crashes.
fuzz: $(STAMP)
	$(PY) -m tests.fuzz --count 100000

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
