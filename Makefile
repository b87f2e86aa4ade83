# Two commands: `make run` serves Zeus with demo data at 127.0.0.1:8000; `make test` runs the suite.
# Without DATABASE_URL both use the embedded PostgreSQL under .data/ (zeus/embedded_db.py), started on first use
# and left running for the next command; `make stop-db` stops it. `make run` prepares in one process before it
# serves (`manage.py prepare`: stale catalogs compiled, migrations applied, the demo data loaded).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per set installed, named for the requirements' checksums: editing a file installs again.
RUNTIME := $(VENV)/.installed-runtime-$(shell cat requirements.txt | cksum | cut -d' ' -f1)
DEV := $(VENV)/.installed-dev-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)

.PHONY: run test install install-dev bench lint migrate messages stop-db

$(RUNTIME): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-runtime-*
	touch $@

$(DEV): $(RUNTIME) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	rm -f $(VENV)/.installed-dev-*
	touch $@

install: $(RUNTIME)

install-dev: $(DEV)

# The translation catalogs are committed as .po and compiled here with Babel (no GNU gettext needed).
messages: install
	$(PY) manage.py compile_catalogs

migrate: messages
	$(PY) manage.py migrate --noinput

stop-db:
	$(PY) -m zeus.embedded_db stop

# REDIS_URL may come from the shell or from .env (Django and honcho both read it). The Procfile names bare
# commands (gunicorn, python, celery), so the venv goes first on PATH. One address serves everything, as the
# browser needs its websockets on the page's origin: with Redis, the Procfile's `ws` (daphne through
# `python -m zeus.ws_serve`, which serves HTTP too) faces the browser on HOST:PORT beside the worker and beat (honcho gives the first process named the
# base port); `web` behind a reverse proxy is the production layout (docs/serving.md). Without Redis there is
# no broker (tasks run eagerly) and the channel layer lives in one process's memory, so one
# `python -m zeus.ws_serve` (daphne, an oversized frame closed with 1009) serves everything alone.
run: install
	$(PY) manage.py prepare
	@if [ -n "$$REDIS_URL" ] || grep -qsE '^REDIS_URL=.+' .env; then \
		PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho start -f Procfile -p "$${PORT:-8000}" ws worker beat; \
	else \
		$(PY) -m zeus.ws_serve -b "$${HOST:-127.0.0.1}" -p "$${PORT:-8000}" --websocket-max-message-size 65536 zeus.asgi:application; \
	fi

test: install-dev messages
	$(PY) -m pytest

bench: install-dev messages
	$(PY) -m bench

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
