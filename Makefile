# Two commands: `make run` serves Zeus with demo data at 127.0.0.1:8000; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt | cksum | cut -d' ' -f1)

.PHONY: run test install bench lint migrate messages

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# The translation catalogs are committed as .po and compiled here with Babel (no GNU gettext needed).
messages: install
	$(PY) manage.py compile_catalogs

migrate: messages
	$(PY) manage.py migrate --noinput

# REDIS_URL may come from the shell or from .env (Django and honcho both read it). The Procfile names bare
# commands (gunicorn, daphne, celery), so the venv goes first on PATH. One address serves everything, as the
# browser needs its websockets on the page's origin: with Redis, the Procfile's `ws` (daphne, which serves HTTP
# too) faces the browser on HOST:PORT beside the worker and beat (honcho gives the first process named the
# base port); `web` behind a reverse proxy is the production layout (docs/serving.md). Without Redis there is
# no broker (tasks run eagerly) and the channel layer lives in one process's memory, so one daphne
# serves everything alone.
run: migrate
	$(PY) manage.py seed_demo
	@if [ -n "$$REDIS_URL" ] || grep -qsE '^REDIS_URL=.+' .env; then \
		PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho start -f Procfile -p "$${PORT:-8000}" ws worker beat; \
	else \
		$(VENV)/bin/daphne -b "$${HOST:-127.0.0.1}" -p "$${PORT:-8000}" --websocket-max-message-size 65536 zeus.asgi:application; \
	fi

test: messages
	$(PY) -m pytest

bench: messages
	$(PY) -m bench

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
