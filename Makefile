# Every command of the project, defined once: CI (.ci/run) is `make system-packages` then
# `make check`, and tox (tox.ini) calls these targets in its own environments.
# Every target creates .venv on first use, so each works on a fresh machine.
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

## What a target needs installed first: .venv with the project and its `test` extra, or with
## one more extra ($(call venv,torch)). tox's environments come installed: it passes INSTALLED=yes.
venv = $(if $(INSTALLED),,$(if $(1),$(VENV)/.extra-$(1)-stamp,$(STAMP)))

## pyproject.toml read with Python's tomllib: $(call pyproject,[...]) is that table's keys
pyproject = $(shell python3 -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))$(1))')
## The engines, in the conformance matrix's order: pyproject.toml's `forkwait.implementations`
## entry points, each naming an adapter. An engine with an extra of its own name there (torch,
## ray, gevent, ...) gets it installed before it runs.
ENGINES := $(call pyproject,["project"]["entry-points"]["forkwait.implementations"])
EXTRAS := $(call pyproject,["project"]["optional-dependencies"])
engine_venv = $(call venv,$(filter $(1),$(EXTRAS)))
ifeq ($(ENGINES),)
$(error make could not read the engines from pyproject.toml: it needs python3 3.11 or newer)
endif

## Sphinx on the spec, warnings as errors and every page read afresh: $(call sphinx,BUILDER)
## writes into build/BUILDER
sphinx = $(BIN)/sphinx-build -W -q -E -b $(1) -c conf docs build/$(1)

.PHONY: conformance $(ENGINES:%=conformance-%) engine-extras matrix peers test mutants lint \
	type docs doctest wheel-smoke check system-packages docs-tools browser-tools clean
# the engines' rule finds its prerequisite from the engine's name ($$*)
.SECONDEXPANSION:
# make check's order matters (each extra before the tests that use it), and every target here
# keeps both cores busy on its own: one at a time
.NOTPARALLEL:

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

$(VENV)/.extra-%-stamp: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,$*]'
	touch $@

## the main job: the conformance suite against the embedded reference implementation
conformance: conformance-reference

## the suite against one engine, with its extra: make conformance-torch, conformance-threads, ...
## (ARGS=--quick, or any other option of forkwait-conformance, passes through)
$(ENGINES:%=conformance-%): conformance-%: $$(call engine_venv,$$*)
	$(BIN)/forkwait-conformance --impl $* $(ARGS)

## every engine's extra, so that no test of an engine skips for want of it
engine-extras: $(foreach engine,$(ENGINES),$(call engine_venv,$(engine)))

## re-record docs/_results/ (the docs' conformance matrix): every engine the project ships
## (recorded into build/results first: the spec's matrix page reads docs/_results while
## each run reads the spec, and a failed run must not leave the matrix half re-recorded)
matrix: engine-extras
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

## the unit tests, the differential suite, the browser test and the spec's examples, stage by
## stage, each under a header that says what it runs (tests/stages.py); STAGES=differential
## (or another stage's name) runs only that one, and STAGES=mutants each mutant on the rules it
## breaks (the mutants' runs are make mutants', on the whole spec, which CI runs)
test: $(call venv)
	$(BIN)/python -m tests.stages $(STAGES)

## the mutant suite on the whole spec: each mutant fails exactly its rules and their declared
## extras (make test STAGES=mutants runs each on the rules it breaks only)
mutants: $(call venv)
	FORKWAIT_MUTANTS=whole-spec $(BIN)/pytest -n 0 tests/mutants/test_mutants.py

lint: $(call venv)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.spec.lint_doc_code

type: $(call venv)
	$(BIN)/mypy

docs: $(call venv) docs-tools
	$(call sphinx,html)
	@echo "make docs: the spec as HTML is in $(CURDIR)/build/html/index.html"

## every example through sphinx.ext.doctest. An example of FUTURE-ADD-DONE-CALLBACK-1 logs
## a callback's error (with its traceback) on purpose: Sphinx's output is shown on failure only
doctest: $(call venv)
	@mkdir -p build
	@$(call sphinx,doctest) >build/doctest.log 2>&1 \
	  || { cat build/doctest.log >&2; echo "make doctest: sphinx-build failed (above)" >&2; exit 1; }
	@echo "make doctest: every example passed under sphinx-build -b doctest (output: build/doctest.log)"

## install the built wheel in a throw-away venv and run the suite from /tmp
wheel-smoke: $(call venv)
	bash .ci/wheel-smoke $(BIN)/python

## everything CI runs (.ci/run: `make system-packages`, then this), in this order: the tools
## from outside Python, every extra (so that no test skips for want of one), then the checks.
## The browser test must run here, not skip.
check: export FORKWAIT_REQUIRE_BROWSER := 1
check: docs-tools browser-tools engine-extras test mutants $(ENGINES:%=conformance-%) lint type \
	docs doctest wheel-smoke peers

## Programs from outside Python (Debian's packages): Graphviz's dot draws the spec's graphs
## (make docs), Chromium lays the built HTML out for its browser test (make test), and
## python3-venv is `python3 -m venv` (Debian ships it apart). No target installs them behind
## your back: the *-tools targets say what is missing and the command; `make system-packages`
## (as root) is that command, loud, and CI runs it explicitly.
SYSTEM_PACKAGES := graphviz chromium python3-venv
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
browser-tools: $(call venv,browser)
	@test -x /usr/bin/chromium || { \
	  echo "the browser test needs Debian's chromium (/usr/bin/chromium), which is not installed." >&2; \
	  echo "install it with: sudo apt-get install chromium   (or, as root: make system-packages)" >&2; \
	  exit 1; }

clean:
	rm -rf build $(VENV)
