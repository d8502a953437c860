#!/usr/bin/env python3
"""`make test-api`: the API contract, exercised from openapi.yaml itself.

Starts the debug server (target/debug/site) on a free loopback port with a fresh SQLite
database and no rate limit to speak of, then runs schemathesis (`make tools` installs it
into .tools/venv) over every operation of openapi.yaml: examples, boundary values and
fuzzed bodies in JSON and as form posts, valid and invalid. Every answer must be
documented for its operation (status, content type, headers) and match its schema, no
answer may be a 5xx, and invalid bodies must be refused.

One check is left out: `positive_data_acceptance` (a body the schema allows must be
accepted). The schema cannot say everything the server checks: that a phone number is a
dialable North American one, that `tcpa_text` is exactly the consent wording the page
showed, that `serviceSlug` names one of the catalogue's services. Such bodies are refused
with a 400 and a sentence, which the other checks hold to the documented shape. And a body
with a filled honeypot is answered like an accepted one on purpose (api_contract_hooks.py).

Knobs, by environment: API_TEST_SEED (1), API_TEST_EXAMPLES (per operation, 150),
API_TEST_PORT (a free one). Standard library only.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SITE = os.path.join(ROOT, "target", "debug", "site")
SCHEMATHESIS = os.path.join(ROOT, ".tools", "venv", "bin", "schemathesis")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url, proc, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"api-contract: the server exited with {proc.returncode} before it answered")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"api-contract: the server did not answer {url}/healthz within {seconds} s")


def main():
    for path, hint in [(SITE, "cargo build --bin site"), (SCHEMATHESIS, "make tools")]:
        if not os.access(path, os.X_OK):
            sys.exit(f"api-contract: {path} is missing: run `{hint}` (make test-api does)")
    port = int(os.environ.get("API_TEST_PORT") or free_port())
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="api-contract-") as tmp:
        env = dict(os.environ, LISTEN=f"127.0.0.1:{port}", DATABASE_URL=f"sqlite:{tmp}/site.db",
                   RATE_LIMIT_PER_MINUTE="1000000000", SMTP_URL="", WEBHOOK_URL="", RUST_LOG="warn")
        # A filled honeypot is answered like a success on purpose: api_contract_hooks.py.
        checker_env = dict(os.environ, SCHEMATHESIS_HOOKS="api_contract_hooks",
                           PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(tmp, "site.log"), "wb") as log:
            server = subprocess.Popen([SITE], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                wait_healthy(url, server)
                command = [
                    SCHEMATHESIS, "run", os.path.join(ROOT, "openapi.yaml"), "--url", url,
                    "--checks", "all", "--exclude-checks", "positive_data_acceptance",
                    "--seed", os.environ.get("API_TEST_SEED", "1"),
                    "--max-examples", os.environ.get("API_TEST_EXAMPLES", "150"),
                    "--generation-database", "none", "--workers", "1", "--no-color",
                ]
                print("api-contract:", " ".join(command[1:]), flush=True)
                result = subprocess.run(command, cwd=tmp, env=checker_env)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.kill()
        if server.returncode not in (0, -15):
            with open(os.path.join(tmp, "site.log"), encoding="utf-8", errors="replace") as f:
                print(f.read()[-4000:], file=sys.stderr)
            sys.exit(f"api-contract: the server stopped with {server.returncode}")
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
