# Two commands: `make run` serves the site, `make test` runs every test.
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
# Scale-out: `make run WEB=2 WORKERS=2` runs two Daphne processes sharing one listening socket
# (hexsite/serve.py) and two Celery workers; always one beat.
WEB ?= 1
WORKERS ?= 1
export HEXSITE_HOST HEXSITE_PORT WEB

.PHONY: run test install migrate superuser bench load clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml package.json package-lock.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,load]"
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: install
	@mkdir -p var
	$(WITH_SERVICES) bash -c '\
	  $(PY) manage.py migrate --noinput && \
	  echo && echo "  hexsite is starting: open http://$(HEXSITE_HOST):$(HEXSITE_PORT)/  (Ctrl-C stops everything)" && echo && \
	  exec $(VENV)/bin/honcho -f Procfile start -c web=1,worker=$(WORKERS),beat=1'

# pytest exits 5 when it collects no tests: that is a failure here too, never hidden.
test: install
	@mkdir -p var
	$(WITH_TEST_SERVICES) $(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; exit $$rc

superuser: install
	$(WITH_SERVICES) bash -c '$(PY) manage.py migrate --noinput && $(PY) manage.py createsuperuser'

bench: install
	$(WITH_SERVICES) bash -c 'for b in benchmarks/*.py; do case $$b in benchmarks/load.py|benchmarks/live_swaps.py) continue;; esac; echo "== $$b"; $(PY) $$b || exit 1; done'

# The load harness: starts the site like `make run WEB=2 WORKERS=2` (on a throw-away database),
# drives it with HTTP and WebSocket clients for about 3 minutes, prints the figures and checks.
# LOAD_ARGS passes options (see `python benchmarks/load.py --help`).
load: install
	@mkdir -p var
	$(WITH_SERVICES) $(PY) benchmarks/load.py --web $(WEB_LOAD) --workers $(WORKERS_LOAD) $(LOAD_ARGS)

WEB_LOAD ?= 2
WORKERS_LOAD ?= 2

clean:
	rm -rf $(VENV) node_modules var staticfiles
