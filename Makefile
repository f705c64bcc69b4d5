# Two commands: `make run` serves the site, `make test` runs every test (`make test-fast`: the
# quick loop, without a browser or the site's own processes).
# Both set up everything first (.venv, Python and npm packages), and start an embedded
# PostgreSQL and Redis when DATABASE_URL / REDIS_URL are not set. Launchers in one checkout
# share those services safely (see hexsite/localservices.py); tests get a Redis of their own.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WITH_SERVICES := $(PY) -m hexsite.localservices --
# Tests flush Redis: never the one a running site uses.
WITH_TEST_SERVICES := $(PY) -m hexsite.localservices --private-redis --
HEXSITE_HOST ?= 127.0.0.1
HEXSITE_PORT ?= 8000
# Scale-out: `make run WEB=2 WORKERS=2` serves the pages with two gunicorn workers and the game
# sockets with SOCKETS Daphnes on the next port (hexsite/serve.py), and runs two Celery workers
# for the "play" queue (AI moves, timers); always one worker for the default queue (e-mails,
# sweeps), one for the "solver" queue (pars) and one beat.
WEB ?= 1
WORKERS ?= 1
# The game sockets get Daphne processes of their own (SOCKETS=0: the web processes serve them),
# on HEXSITE_SOCKET_PORT (default: the next port after HEXSITE_PORT).
SOCKETS ?= 1
export HEXSITE_HOST HEXSITE_PORT WEB SOCKETS

.PHONY: run test test-fast install catalogues messages migrate superuser bench bench-api load capacity lighthouse lighthouse-live clean

install: $(VENV)/.installed node_modules/.installed catalogues

# The translation catalogues, compiled when a .po is newer than its .mo (hexsite/catalogues.py).
catalogues: $(VENV)/.installed
	@$(PY) -m hexsite.catalogues

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,load]"
	touch $@

# Apart from the Python packages: `npm ci` empties node_modules first, so it runs only when the
# npm packages change (a browser test running meanwhile would miss its files).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: install
	@mkdir -p var
	$(WITH_SERVICES) bash -c '\
	  $(PY) manage.py migrate --noinput && $(PY) manage.py collectstatic --noinput --verbosity 0 && \
	  echo && echo "  hexsite is starting: open http://$(HEXSITE_HOST):$(HEXSITE_PORT)/  (Ctrl-C stops everything)" && echo && \
	  exec $(VENV)/bin/honcho -f Procfile start -c web=1,play=$(WORKERS),worker=1,solver=1,beat=1'

# After changing a marked string: gather the strings into locale/*/django.po and djangojs.po
# (needs GNU gettext's xgettext and msgmerge, `apt-get install gettext`), then translate them.
MAKEMESSAGES := $(PY) manage.py makemessages -l de -l es --no-obsolete --add-location file \
  --ignore '.venv/*' --ignore 'node_modules/*' --ignore 'staticfiles/*' --ignore 'var/*' --ignore 'tests/*' --ignore 'benchmarks/*'
messages: install
	mkdir -p locale
	$(MAKEMESSAGES)
	$(MAKEMESSAGES) -d djangojs --ignore 'static/vendor/*'

# The whole suite runs in TEST_WORKERS processes (pytest-xdist; each has its own test database
# and Redis database, tests/workers.py). Browser tests mostly wait, so more workers than cores
# pay (docs/performance-log.md, "The test suite in parallel"). With PYTEST_ARGS (a few tests) one process, unless
# TEST_WORKERS is given: `make test PYTEST_ARGS=tests/web TEST_WORKERS=2`.
TEST_WORKERS ?= $(if $(PYTEST_ARGS),0,4)
# loadgroup: a module sharing a module-scoped fixture runs on one worker, the largest groups
# first (tests/conftest.py); every other test goes to the next free worker.
xdist = $(if $(filter-out 0,$(1)),-n $(1) --dist loadgroup)
# The quick loop: engines, services and web, none marked slow (10 s or more here); no browser,
# no platform checks, no site processes. It keeps its test database between runs (--reuse-db:
# migrate then only applies what is new), so only the first run migrates.
FAST_TESTS := tests/engines tests/services tests/web -m "not e2e and not processes and not slow" --reuse-db
FAST_WORKERS ?= 3

# pytest exits 5 when it collects no tests: that is a failure here too, never hidden.
test: install
	@mkdir -p var
	$(WITH_TEST_SERVICES) $(PY) -m pytest $(call xdist,$(TEST_WORKERS)) $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; exit $$rc

test-fast: install
	@mkdir -p var
	$(WITH_TEST_SERVICES) $(PY) -m pytest $(call xdist,$(FAST_WORKERS)) $(FAST_TESTS) $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "make test-fast: pytest collected no tests" >&2; fi; exit $$rc

superuser: install
	$(WITH_SERVICES) bash -c '$(PY) manage.py migrate --noinput && $(PY) manage.py createsuperuser'

bench: install
	$(WITH_SERVICES) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(WITH_SERVICES) bash -c 'for b in benchmarks/*.py; do case $$b in benchmarks/load.py|benchmarks/api_streams.py|benchmarks/live_swaps.py|benchmarks/lighthouse.py|benchmarks/lighthouse_live.py) continue;; esac; echo "== $$b"; $(PY) $$b || exit 1; done'

# The load harness: starts the site like `make run WEB=2 WORKERS=2` (on a throw-away database),
# drives it with HTTP and WebSocket clients for about 3 minutes, prints the figures and checks.
# LOAD_ARGS passes options (see `python benchmarks/load.py --help`).
load: install
	@mkdir -p var
	$(WITH_SERVICES) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(WITH_SERVICES) $(PY) benchmarks/load.py --web $(WEB_LOAD) --workers $(WORKERS_LOAD) $(LOAD_ARGS)

# Capacity against a floor (issue 48): the site started as for `make load`, with a bare
# insert-and-commit view beside it (hexsite/capacity_floor.py, mounted only for this); CPU per
# move, an idle move, the latency-throughput curve's knee and each page's CPU, each beside the
# floor's (under 10 minutes). CAPACITY_ARGS passes options (`python benchmarks/capacity.py --help`).
capacity: install
	@mkdir -p var
	$(WITH_SERVICES) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(WITH_SERVICES) $(PY) benchmarks/capacity.py --web $(WEB_LOAD) --workers $(WORKERS_LOAD) $(CAPACITY_ARGS)

# The API's costs beside the pages' (benchmarks/api_streams.py): a stream's delay beside a
# WebSocket push's, a move's CPU through the API beside the page's, 500 streams on one socket
# process while games play; starts its own site on a throw-away database (about 2 minutes).
# BENCH_API_ARGS passes options (`python benchmarks/api_streams.py --help`).
bench-api: install
	@mkdir -p var
	$(WITH_SERVICES) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(WITH_SERVICES) $(PY) benchmarks/api_streams.py $(BENCH_API_ARGS)

# Lighthouse over the main pages of the site `make run` serves (same HEXSITE_PORT, same checkout).
lighthouse: install
	$(WITH_SERVICES) $(PY) benchmarks/lighthouse.py $(LIGHTHOUSE_ARGS)

# Lighthouse on a live Hexland room while its AI seats play, beside a room waiting for the
# viewer; starts its own site on a throw-away database (benchmarks/lighthouse_live.py).
lighthouse-live: install
	@mkdir -p var
	$(WITH_SERVICES) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(WITH_SERVICES) $(PY) benchmarks/lighthouse_live.py $(LIGHTHOUSE_ARGS)

WEB_LOAD ?= 2
WORKERS_LOAD ?= 2

clean:
	rm -rf $(VENV) node_modules var staticfiles
