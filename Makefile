# Every target sets itself up: a fresh machine needs nothing but `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APT_PACKAGES := xvfb xdotool x11-utils iproute2 bubblewrap chromium
STAMP := $(VENV)/.installed
# esbuild, the TypeScript sample's build tool (its benchmark tasks build with it too)
TALLY := sample_projects/web_tally
ESBUILD := $(TALLY)/node_modules/.bin/esbuild

.PHONY: setup system-packages demo test bench bench-detection bench-llm lint clean

setup: system-packages $(STAMP) $(ESBUILD)

system-packages:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing Debian packages:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "missing Debian packages:$$missing"; \
			echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$$missing"; \
			exit 1; \
		fi; \
	fi
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing Debian packages: nodejs npm"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; \
		else \
			echo "node and npm are missing; run: sudo apt-get install -y --no-install-recommends nodejs npm"; \
			exit 1; \
		fi; \
	fi

# the version is read from pytest_playtest/__init__.py: the installed metadata follows it
$(STAMP): pyproject.toml pytest_playtest/__init__.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# from npm's cache when it holds the locked version (offline), else from the registry
$(ESBUILD): $(TALLY)/package.json $(TALLY)/package-lock.json
	cd $(TALLY) && npm ci --prefer-offline --no-audit --no-fund --loglevel=error
	touch $@

demo: setup
	mkdir -p reports
	$(BIN)/pytest --playtest --playtest-coverage sample_projects -n 2 -p no:cacheprovider --html=reports/playtest.html --self-contained-html

test: lint
	$(BIN)/pytest -n 2 tests -m "not alone"
	$(BIN)/pytest tests -m alone -p no:cacheprovider -q
	$(BIN)/pytest --playtest sample_projects -n 2 -p no:cacheprovider -q

bench: setup
	$(BIN)/python benchmarks/perf/run.py
	@echo "the detection benchmark (about 30 minutes on 2 cores): make bench-detection"

bench-detection: setup
	$(BIN)/python benchmarks/detection/run.py

# what the LLM tester sends per step (loopback endpoint: no model, no network), about a minute
bench-llm: setup
	$(BIN)/python benchmarks/llm/run.py --price input=2.5,cached=1.25,output=10

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) playtest-results reports .pytest_cache $(TALLY)/node_modules
