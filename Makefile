# RingReady website. `make run` builds everything and starts the site; `make test` runs
# every test suite. Both install what is missing (npm packages, Debian's chromium).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

LISTEN ?= 127.0.0.1:8080
export LISTEN
NPM ?= npm
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM_PATH := $(CHROMIUM)
# Quiet tailwind's browserslist nag.
export BROWSERSLIST_IGNORE_OLD_DATA := 1

WEB_SOURCES := $(shell find client ssr-bundle -name '*.ts' -o -name '*.tsx' -o -name '*.mjs' -o -name '*.css' -o -name '*.cjs' 2>/dev/null)
WEB_OUT := target/web/ssr.js target/web/manifest.json target/web/bootstrap.js target/web/site.css target/web/icons.json

.PHONY: run build web types test test-rust test-js test-e2e typecheck bench fmt lint clean deps chromium tools

## Installs npm packages when package-lock.json changed (or node_modules is missing).
deps: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

## The JS bundles, CSS and icon set the server embeds.
web: $(WEB_OUT)
$(WEB_OUT) &: node_modules/.installed $(WEB_SOURCES) catalogue/services.json
	node client/build.mjs
	node ssr-bundle/build.mjs

build: web
	$(CARGO) build --release --locked --bin site

run: build
	@mkdir -p data
	./target/release/site

## A real SMTP server (Python's aiosmtpd) for the e-mail tests, in a local virtualenv.
SMTP_PYTHON := $(CURDIR)/.tools/venv/bin/python
export SMTP_TEST_PYTHON := $(SMTP_PYTHON)
tools: .tools/venv/.installed
.tools/venv/.installed:
	python3 -m venv .tools/venv
	.tools/venv/bin/pip install --quiet --disable-pip-version-check aiosmtpd==1.4.6
	@touch $@

## Debian's chromium for the browser tests, installed when missing.
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		echo "installing chromium (Debian package)"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

test: test-js test-rust test-e2e

## Regenerates client/lib/props.gen.ts from the page props in server/src/pages/props.rs
## (test-rust fails while it is stale).
types: web
	UPDATE_TYPES=1 $(CARGO) test --locked --lib pages::props

typecheck: deps
	npx tsc --noEmit -p tsconfig.json

test-js: deps typecheck
	npx vitest run

test-rust: web tools
	$(CARGO) test --locked --workspace --no-fail-fast

test-e2e: web chromium tools
	$(CARGO) build --locked --bin site
	npx playwright test -c e2e/playwright.config.ts

bench: build chromium tools
	python3 server/benches/bench.py

fmt: deps
	$(CARGO) fmt --all

lint: deps typecheck
	$(CARGO) clippy --workspace --all-targets -- -D warnings

clean:
	rm -rf target/web
	$(CARGO) clean
