# The two commands: `make run` (set up and serve) and `make test` (set up and test).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup venv venv-dev venv-loadtest migrate data serve bench lint \
	format worker clean

# Without the debug pages (a 404 lists no URLs) unless DEBUG=1; --insecure lets the
# development server serve the static files with DEBUG off.
run: setup
	@echo "Serving on http://$(HOST):$(PORT)/ (a task worker runs beside it; Ctrl-C stops both)"
	@trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	export DEBUG="$${DEBUG:-0}"; \
	$(PYTHON) manage.py db_worker --queue-name '*' & worker=$$!; \
	$(PYTHON) manage.py runserver --insecure $(HOST):$(PORT)

# Two worker processes (pytest-xdist), each with its own test databases; a later
# -n wins, so PYTEST_ARGS="-n 0" runs the suite in this process.
PYTEST_WORKERS ?= 2
test: venv-dev setup
	$(PYTHON) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

setup: venv migrate data

# Three sets of pinned requirements, each with its stamp: the runtime ones
# (`make run`), the development ones (tests, lint) and the load test's. A stamp
# depends on every requirements file its install reads.
venv: $(VENV)/.installed
venv-dev: $(VENV)/.installed-dev
venv-loadtest: $(VENV)/.installed-loadtest

$(VENV)/.installed: requirements.txt
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt requirements.txt
	$(PYTHON) -m pip install --quiet -r requirements-dev.txt
	touch $@

$(VENV)/.installed-loadtest: $(VENV)/.installed requirements-loadtest.txt \
		requirements.txt
	$(PYTHON) -m pip install --quiet -r requirements-loadtest.txt
	touch $@

migrate: venv
	$(PYTHON) manage.py migrate --no-input -v 0

data: migrate
	$(PYTHON) manage.py load_cards

worker: setup
	$(PYTHON) manage.py db_worker --queue-name '*'

# Production settings behind gunicorn, with a TLS proxy in front
# (docs/deployment.md). SECRET_KEY comes from the environment, or from
# $(SECRET_KEY_FILE) (made once, readable by its owner only, never committed).
SECRET_KEY_FILE ?= .secret-key
STATIC_MANIFEST := staticfiles/staticfiles.json
serve: setup $(STATIC_MANIFEST)
	@test -n "$$SECRET_KEY" || test -s $(SECRET_KEY_FILE) || (umask 077 && \
		$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(64))" > $(SECRET_KEY_FILE))
	@test ! -f $(SECRET_KEY_FILE) || chmod 600 $(SECRET_KEY_FILE)
	export CARDSITE_PRODUCTION=1 SECRET_KEY="$${SECRET_KEY:-$$(cat $(SECRET_KEY_FILE))}"; \
	$(PYTHON) manage.py check --deploy --fail-level WARNING && \
	exec $(BIN)/gunicorn cardsite.wsgi:application --config cardsite/gunicorn.conf.py \
		--bind $(HOST):$(PORT) --workers $${WORKERS:-3} --access-logfile -

# Collecting and compressing the static files takes minutes: only when they change.
$(STATIC_MANIFEST): requirements.txt $(shell find static -type f) | venv
	CARDSITE_PRODUCTION=1 SECRET_KEY="$$($(PYTHON) -c "import secrets; print(secrets.token_urlsafe(64))")" \
		$(PYTHON) manage.py collectstatic --no-input -v 0

# The standard benchmarks (docs/performance.md); ARGS="bots --game collision" runs
# one, ARGS=--list names them all.
bench: setup
	$(PYTHON) -m tools.bench $(ARGS)

# Load test, not part of `make test`: 60 s of locust traffic against gunicorn
# (production settings, plain HTTP on loopback) on SQLite, then on a throwaway
# PostgreSQL cluster. LOADTEST_ARGS="--backends sqlite --run-time 20" narrows it.
.PHONY: loadtest
loadtest: venv-loadtest
	$(PYTHON) tools/loadtest/run.py $(LOADTEST_ARGS)

lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports

format: venv-dev
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) db.sqlite3* test_db.sqlite3* staticfiles
