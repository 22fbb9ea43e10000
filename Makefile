# The front door: `make run` serves the app, `make test` runs every check.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench bench-server bench-startup bench-bots bench-accounts bench-tournament soak venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/carcassonne serve --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check app tests benchmarks examples
	$(BIN)/ruff format --check app tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/lint-imports

# The suite runs in parallel (pytest-xdist): one worker per core (PYTEST_WORKERS=N chooses),
# each test wherever a worker is free, a browser test file whole on one worker (tests/conftest.py).
PYTEST_WORKERS ?= auto
PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup

test: lint
	$(BIN)/pytest $(PARALLEL)

# The inner loop: everything but real server processes, Postgres/Redis and Chromium.
test-fast: $(STAMP)
	$(BIN)/pytest $(PARALLEL) -m "not slow and not browser and not postgres and not redis"

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

bench-server: $(STAMP)
	$(BIN)/python benchmarks/load.py

# Seconds from `carcassonne serve` to a healthy answer (embedded default; restarts).
bench-startup: $(STAMP)
	$(BIN)/python benchmarks/startup.py

# One address floods registrations and logins: the instance's other answers during it.
bench-accounts: $(STAMP)
	$(BIN)/python benchmarks/account_flood.py --limits off
	$(BIN)/python benchmarks/account_flood.py --limits production
	$(BIN)/python benchmarks/account_flood.py --limits production --addresses 6 --registrations 0 --logins 60

# 300 sockets watch one tournament while 10 players register: /healthz meanwhile (Postgres).
bench-tournament: $(STAMP)
	$(BIN)/python benchmarks/tournament_watch.py

# Strength of the computer levels (duels); GAMES/THINK override the quick defaults.
bench-bots: $(STAMP)
	$(BIN)/python benchmarks/bots.py $(if $(GAMES),--games $(GAMES)) $(if $(THINK),--think $(THINK))

# Chaos run (benchmarks/soak.py): three instances, 30 tables for 20 minutes under faults, then
# checks; SOAK_ARGS adds options (e.g. SOAK_ARGS="--postgres private", "--short", "--seed 7").
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
