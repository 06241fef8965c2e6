# Every target creates .venv on first use, so each works on a fresh machine.
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: system-packages browser-tools peers teeth conformance conformance-torch conformance-dask conformance-threads conformance-ray conformance-gevent matrix test lint type docs docs-tools doctest check wheel-smoke clean
TORCH_STAMP := $(VENV)/.torch-stamp
RAY_STAMP := $(VENV)/.ray-stamp
GEVENT_STAMP := $(VENV)/.gevent-stamp

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

## the main job: the conformance suite against the embedded reference implementation
conformance: $(STAMP)
	$(BIN)/forkwait-conformance --impl reference

# torch 2.13.0 CPU: the pin matches a wheel on this machine's disk (no multi-GB download)
$(TORCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,torch]'
	touch $@

## the suite against torch.jit; passes with torch's declared expected failures
conformance-torch: $(TORCH_STAMP)
	$(BIN)/forkwait-conformance --impl torch

## the suite against forkwait-on-Dask (an in-process LocalCluster; FORKWAIT_DASK_SCHEDULER for another)
conformance-dask: $(STAMP)
	$(BIN)/forkwait-conformance --impl dask

## the suite against the standard library's concurrent.futures.ThreadPoolExecutor, as it is
conformance-threads: $(STAMP)
	$(BIN)/forkwait-conformance --impl threads

# ray 2.60.0: the release measured in docs/_results/ray.json
$(RAY_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,ray]'
	touch $@

## the suite against Ray's own API (a local Ray, started on demand)
conformance-ray: $(RAY_STAMP)
	$(BIN)/forkwait-conformance --impl ray

# gevent 26.9.0: the release measured in docs/_results/gevent.json
$(GEVENT_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,gevent]'
	touch $@

## the suite against gevent as it is (monkey-patched; fork is gevent.spawn, wait Greenlet.get)
conformance-gevent: $(GEVENT_STAMP)
	$(BIN)/forkwait-conformance --impl gevent

## re-record docs/_results/ (the docs' conformance matrix): every implementation the project ships
ENGINES := reference torch dask threads ray gevent
## (recorded into build/results first: the spec's matrix page reads docs/_results while
## each run reads the spec, and a failed run must not leave the matrix half re-recorded)
matrix: $(TORCH_STAMP) $(RAY_STAMP) $(GEVENT_STAMP)
	mkdir -p build/results
	for impl in $(ENGINES); do \
	  $(BIN)/forkwait-conformance --impl $$impl -q --report build/results/$$impl.json \
	  || exit 1; done
	cp $(ENGINES:%=build/results/%.json) docs/_results/
	$(BIN)/forkwait-conformance matrix $(ENGINES:%=docs/_results/%.json)

## per document, this engine and its peers (pytest-sphinx, pytest-doctestplus, stock sybil)
## against sphinx-build -b doctest, in a throw-away venv so the peers' plugins stay out of .venv
PEERS_VENV := build/peers-venv
peers:
	python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install -q --upgrade pip
	$(PEERS_VENV)/bin/python -m pip install -q -e . 'pytest-sphinx==0.7.1' 'pytest-doctestplus==1.7.1'
	$(PEERS_VENV)/bin/python benchmarks/peers.py

## unit tests of reference_impl and conformance, plus the spec's examples (two workers)
test: $(STAMP)
	@$(BIN)/pytest -n 2; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: that is a failure here" >&2; exit 1; fi; \
	exit $$rc

## the mutant suite on the whole spec: each mutant fails exactly its requirements
## (make test runs each on the requirements it must fail); CI runs both
teeth: $(STAMP)
	FORKWAIT_MUTANTS=whole-spec $(BIN)/pytest -n 0 tests/mutants/test_mutants.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.spec.lint_doc_code

type: $(STAMP)
	$(BIN)/mypy

## Programs from outside Python (Debian's packages): Graphviz's dot draws the spec's graphs
## (make docs), Chromium lays the built HTML out for its browser test (make test). No target
## installs them behind your back: the *-tools targets say what is missing and the command;
## `make system-packages` (as root) is that command, loud, and CI runs it explicitly.
SYSTEM_PACKAGES := graphviz chromium
system-packages:
	@echo "make system-packages: apt-get install $(SYSTEM_PACKAGES) (Debian's packages, as root)"
	DEBIAN_FRONTEND=noninteractive apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(SYSTEM_PACKAGES)

docs-tools:
	@command -v dot >/dev/null 2>&1 || { \
	  echo "make docs needs Graphviz's dot, which is not installed." >&2; \
	  echo "install it with: sudo apt-get install graphviz   (or, as root: make system-packages)" >&2; \
	  exit 1; }

## the browser test (tests/spec/test_html_in_browser.py): Playwright in .venv (pip, the `browser`
## extra) driving Debian's /usr/bin/chromium; Playwright never downloads a browser of its own
BROWSER_STAMP := $(VENV)/.browser-stamp
$(BROWSER_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,browser]'
	touch $@

browser-tools: $(BROWSER_STAMP)
	@test -x /usr/bin/chromium || { \
	  echo "the browser test needs Debian's chromium (/usr/bin/chromium), which is not installed." >&2; \
	  echo "install it with: sudo apt-get install chromium   (or, as root: make system-packages)" >&2; \
	  exit 1; }

docs: $(STAMP) docs-tools
	$(BIN)/sphinx-build -W -q -E -c conf docs build/html

## every example through sphinx.ext.doctest. An example of FUTURE-ADD-DONE-CALLBACK-1 logs
## a callback's error (with its traceback) on purpose: Sphinx's output is shown on failure only
doctest: $(STAMP)
	@mkdir -p build
	@$(BIN)/sphinx-build -W -q -E -b doctest -c conf docs build/doctest >build/doctest.log 2>&1 \
	  || { cat build/doctest.log >&2; echo "make doctest: sphinx-build failed (above)" >&2; exit 1; }
	@echo "doctest: every example passed under sphinx-build -b doctest (output: build/doctest.log)"

## install the built wheel in a throw-away venv and run the suite from /tmp
wheel-smoke: $(STAMP)
	bash .ci/wheel-smoke

check: docs-tools browser-tools test teeth conformance conformance-torch conformance-dask conformance-threads conformance-ray conformance-gevent lint type docs doctest wheel-smoke

clean:
	rm -rf build $(VENV)
