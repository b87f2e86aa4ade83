# Two commands: `make run` serves Zeus with demo data at 127.0.0.1:8000; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt | cksum | cut -d' ' -f1)

.PHONY: run test install bench lint migrate

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py seed_demo
	@if [ -n "$$REDIS_URL" ]; then \
		$(VENV)/bin/honcho start -f Procfile web worker beat; \
	else \
		$(VENV)/bin/daphne -b 127.0.0.1 -p 8000 --websocket-max-message-size 65536 zeus.asgi:application; \
	fi

test: install
	$(PY) -m pytest

bench: install
	$(PY) -m bench

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
