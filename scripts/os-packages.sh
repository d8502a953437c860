#!/usr/bin/env bash
# Installs the Debian packages a make target needs when they are missing, in one apt-get:
#   scripts/os-packages.sh [--optional] GROUP...
# The one table of what the suites use from Debian: each group names the check that says it is
# there and the packages that bring it. `make os-packages` installs every group at the start of
# `make test`; each suite's own target (`make chromium`, `make java`, …) asks for its groups
# again, so that a suite run alone has what it needs. With --optional, a failed install is said
# and the script goes on (the suites that need the package say so and skip or fail).
# E2E_CHROMIUM and CHROMIUM (the Makefile sets both) are the browsers' paths.
set -euo pipefail

optional=false
if [[ "${1:-}" == "--optional" ]]; then
  optional=true
  shift
fi

# GROUP → "check|packages"
declare -A TABLE=(
  [e2e-chromium]="test -x ${E2E_CHROMIUM:-/usr/bin/chromium-headless-shell}|chromium-headless-shell"
  [chromium]="test -x ${CHROMIUM:-/usr/bin/chromium}|chromium"
  [java]="command -v java|default-jre-headless"
  [deploy-tools]="command -v caddy && command -v systemd-analyze|caddy systemd"
  [faketime]="command -v faketime|faketime libfaketime"
  [lintian]="command -v lintian && command -v dpkg-shlibdeps|lintian dpkg-dev"
  [venv]="python3 -c 'import ensurepip, venv'|python3-venv"
)

missing=()
for group in "$@"; do
  entry="${TABLE[$group]:-}"
  if [[ -z "$entry" ]]; then
    echo "scripts/os-packages.sh: no group '$group' (groups: ${!TABLE[*]})" >&2
    exit 2
  fi
  if ! bash -c "${entry%%|*}" >/dev/null 2>&1; then
    read -r -a packages <<<"${entry#*|}"
    missing+=("${packages[@]}")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
[[ "$(id -u)" == 0 ]] || sudo=(sudo)
echo "installing Debian packages: ${missing[*]}"
if ! { "${sudo[@]}" apt-get update -qq &&
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
  if $optional; then
    echo "could not install ${missing[*]}: the suites that need them say so"
    exit 0
  fi
  echo "error: could not install ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi
