# Mậu Binh Online. `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Apps with their own translation catalogue (the rest lives in locale/).
LOCALE_APPS := ledger notices games bots moderation social profiles chat ratings tournaments api

.PHONY: run test setup bytecode lint typecheck migrate demo messages worker beat clean lighthouse lighthouse-deps

$(STAMP): requirements.txt requirements-dev.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found: install Python 3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

# The site on the embedded default (SQLite, in-process channel layer and timers) unless
# DATABASE_URL / REDIS_URL are set.
run: export DEBUG ?= true
run: $(STAMP) bytecode
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py seed_demo_tables
	@echo ""
	@echo "  Mậu Binh Online: http://$(HOST):$(PORT)/"
	@echo ""
	$(PY) -m daphne -b $(HOST) -p $(PORT) maubinh_site.asgi:application

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=true $(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/lint-imports

typecheck: $(STAMP)
	$(VENV)/bin/mypy core accounts ledger notices games bots moderation practice social profiles chat ratings tournaments api maubinh_site

# Three pytest-xdist workers on the machine's two cores (most tests wait on timers,
# sockets and browsers, not the CPU): the chaos run, the two halves of the browser tests
# and the 3-minute arena start first, and the rest goes to whichever is free
# (tests/conftest.py).
test: lint typecheck bytecode
	$(PY) -m pytest -n 3 --dist loadgroup --durations=25

# The project's modules compiled once, for the hundreds of processes the suite starts
# (daphne, Celery, manage.py), each of which would otherwise compile every module it imports
# again where the environment sets PYTHONDONTWRITEBYTECODE (0.3-0.6 s a start here; the
# venv's packages pip compiled already). compileall writes the files whatever that says.
bytecode: $(STAMP)
	$(PY) -m compileall -q -j 0 -x '/(\.venv|node_modules|test-artifacts|staticfiles|\.git)/' .

messages: $(STAMP)
	DEBUG=true $(PY) manage.py makemessages -l vi -l en --no-wrap --no-location \
	  --ignore=.venv --ignore=tests --ignore=benchmarks --ignore=staticfiles --ignore=test-artifacts \
	  $(foreach app,$(LOCALE_APPS),--ignore=$(app))
	for app in $(LOCALE_APPS); do (cd $$app && DEBUG=true ../$(PY) ../manage.py makemessages -l vi -l en --no-wrap --no-location); done
	for app in games tournaments; do (cd $$app && DEBUG=true ../$(PY) ../manage.py makemessages -d djangojs -l vi -l en --no-wrap --no-location); done
	DEBUG=true $(PY) manage.py compilemessages --ignore=.venv --ignore=staticfiles

# Lighthouse (npm, pinned by tools/lighthouse/package-lock.json) on the landing, lobby,
# table and rules pages, mobile profile, Debian's Chromium: benchmarks/lighthouse.py
# prints the scores and fails below target (docs/ui.md). Not part of `make test`.
LIGHTHOUSE_STAMP := tools/lighthouse/node_modules/.installed

$(LIGHTHOUSE_STAMP): tools/lighthouse/package.json tools/lighthouse/package-lock.json
	npm ci --prefix tools/lighthouse --no-audit --no-fund
	touch $@

lighthouse-deps: $(LIGHTHOUSE_STAMP)

lighthouse: $(STAMP) $(LIGHTHOUSE_STAMP)
	$(PY) benchmarks/lighthouse.py --runs 3

worker: $(STAMP)
	$(VENV)/bin/celery -A maubinh_site worker --loglevel=INFO

beat: $(STAMP)
	$(VENV)/bin/celery -A maubinh_site beat --loglevel=INFO

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test-artifacts tools/lighthouse/node_modules
