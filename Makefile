# Two commands on a fresh machine: `make run` and `make test`. Both set up their own virtual
# environment (.venv) first, then compile the Cython cores in place.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed

.PHONY: all install build run test test-fast lint bench clean annotate browser gnubg learn record \
	record-headline

all: build

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# Recompile whatever .pyx/.pxd changed since the last build (cythonize checks timestamps).
# Its output (Cython's "Compiling ... because it depends on ...", setuptools' banners) goes to
# $(VENV)/build.log and is shown only when the build fails.
build: $(STAMP)
	@$(PY) setup.py -q build_ext --inplace -j 2 >$(VENV)/build.log 2>&1 || \
	  { cat $(VENV)/build.log; echo "make: the build failed (log: $(VENV)/build.log)"; exit 1; }

run: build
	$(VENV)/bin/arena run configs/quickstart.yaml --jobs 0
	$(VENV)/bin/arena report results/quickstart --compare paper

# Everything, as CI runs it (markers: slow, process, ray, browser; see pyproject.toml), on
# every core (pytest-xdist; tests/conftest.py keeps the tests that share a module's fixture or
# a Ray cluster in one worker). One worker more than the cores: the process, Ray and browser
# tests spend part of their time waiting (for a process to start, a signal to land, a page to
# draw), and the extra worker's tests use that core meanwhile. TEST_WORKERS=0 runs it in this
# process alone.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null) && echo $$((n + 1)) || echo auto)
TEST_PARALLEL = -n $(TEST_WORKERS) --dist loadgroup
# The suite's 25 slowest tests and its wall time, printed, never judged: time is a benchmark
# figure (docs/architecture.md), not a failing test.
TEST_TIMES = --durations=25 --durations-min=1
test: build browser gnubg learn
	@start=$$(date +%s); $(PY) -m pytest tests $(TEST_PARALLEL) $(TEST_TIMES); rc=$$?; \
	echo "suite: $$(( $$(date +%s) - start )) s wall on $$(nproc 2>/dev/null || echo ?) cores," \
	     "$(TEST_WORKERS) workers"; exit $$rc

# The learn extra (torch, run on the CPU) for the training tests (`arena train`): installed by
# `make test` only, so `make run` and the base install stay without it. Its requirements are
# read from pyproject.toml (installing `.[learn]` would compile the package a second time).
LEARN := $(VENV)/.learn
learn: $(LEARN)
$(LEARN): $(STAMP) pyproject.toml
	$(PIP) install -q $$($(PY) -c 'import tomllib; \
	  print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"] \
	  ["optional-dependencies"]["learn"]))')
	touch $(LEARN)

# The browser tests (arena serve's page, the html report) drive Debian's Chromium through its
# chromedriver: installed with apt when missing and this is root (CI: a fresh Debian machine);
# elsewhere those tests skip and say why (under CI=true they fail instead).
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium chromium-driver >/dev/null) || echo "make: chromium could not be installed"; \
	  else \
	    echo "make: no chromium/chromedriver and not root: the browser tests will skip"; \
	  fi; \
	fi

# GNU Backgammon for the gnubg tests (the gnubg player, the .mat records read back): installed
# with apt when missing and this runs as root; elsewhere those tests skip, saying why (the .mat
# read-back fails instead under CI=true).
gnubg:
	@command -v gnubg >/dev/null || [ -x /usr/games/gnubg ] || \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg \
	      >/dev/null) || echo "make: gnubg could not be installed"; \
	  else echo "make: gnubg missing and not root: its tests will skip"; fi

# The record (docs/reproduction): every page rebuilt from its published games
# (docs/reproduction/data), byte for byte; `git diff docs/reproduction` shows any difference.
record: build
	$(VENV)/bin/arena reproduce --from-data docs/reproduction/data --docs docs/reproduction

# The headline claims at the paper's own effort (hours of CPU: resumable, run it again to go on);
# the page and its published games are written when it finishes.
record-headline: build
	nice -n 19 $(VENV)/bin/arena reproduce --only headline --scale 1.0 --games 200 --precision 4 \
		--max-games 600 --aim paper --publish docs/reproduction/data

# The inner loop: every test but the slow, process, Ray and browser ones (under a minute).
test-fast: build
	$(PY) -m pytest tests $(TEST_PARALLEL) -m "not slow and not process and not ray and not browser"

# The Python with ruff, the Cython with cython-lint (unused names and imports; line style is
# ruff's job, so its pycodestyle pass is off). The environment is made only when there is none
# (a changed pyproject.toml does not reinstall everything for a lint), and a linter missing from
# it is installed alone.
CYTHON_SOURCES = $(shell find mcts_arena -name '*.pyx' -o -name '*.pxd' -o -name '*.pxi')

lint:
	@[ -x $(PY) ] || $(MAKE) install
	@$(PY) -m ruff --version >/dev/null 2>&1 || $(PIP) install -q 'ruff>=0.6'
	@$(PY) -c 'import cython_lint' 2>/dev/null || $(PIP) install -q 'cython-lint>=0.16'
	$(PY) -m ruff check mcts_arena tests tools benchmarks examples
	$(VENV)/bin/cython-lint --no-pycodestyle $(CYTHON_SOURCES)

bench: build
	$(VENV)/bin/arena bench --seconds 3
	$(VENV)/bin/arena bench --search --seconds 3

# HTML annotation of every Cython module (yellow lines = Python interaction).
annotate: $(STAMP)
	$(VENV)/bin/cython -a -3 mcts_arena/games/*.pyx mcts_arena/players/search/*.pyx mcts_arena/bench/*.pyx

clean:
	rm -rf build $(VENV) *.egg-info
	find mcts_arena \( -name '*.so' -o -name '*.c' -o -name '*.html' \) -not -path '*/serve/static/*' \
		| xargs rm -f
