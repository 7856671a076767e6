#!/usr/bin/env bash
# Run before the tests. The browser tests drive Debian's Chromium headless shell (playwright-core
# downloads no browser); the store tests start throwaway servers from Debian's postgresql and redis-server
# packages unless SNIPPETKIT_TEST_POSTGRES / SNIPPETKIT_TEST_REDIS name running ones
# (test/helpers/services.ts). Installs what is missing with one apt-get update when this user may
# (root with apt-get, as in CI); otherwise says what to do.
set -euo pipefail
chromium="${SNIPPETKIT_TEST_CHROMIUM:-/usr/bin/chromium-headless-shell}"

# Where test/helpers/services.ts looks for initdb and postgres: Debian keeps them off the PATH.
has_postgres() {
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null
}

find_missing() {
  missing=()
  [ -x "$chromium" ] || missing+=(chromium-headless-shell)
  [ -n "${SNIPPETKIT_TEST_POSTGRES:-}" ] || has_postgres || missing+=(postgresql)
  [ -n "${SNIPPETKIT_TEST_REDIS:-}" ] || command -v redis-server >/dev/null || missing+=(redis-server)
}

find_missing
[ ${#missing[@]} = 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's ${missing[*]} for the tests" >&2
  # The tests start their own servers on free ports: keep the packages from starting the system
  # services (port 5432, 6379) during the install, the Debian way (policy-rc.d, honoured by
  # invoke-rc.d and deb-systemd-invoke). Containers usually have one already.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  # Waits for a dpkg lock held by, e.g., unattended-upgrades on a freshly booted VM.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
    "${missing[@]}" </dev/null >/dev/null
  find_missing
  [ ${#missing[@]} = 0 ] && exit 0
fi

for package in "${missing[@]}"; do
  case "$package" in
    chromium-headless-shell) echo "the browser tests need Chromium's headless shell at $chromium: run 'sudo apt-get install chromium-headless-shell' or set SNIPPETKIT_TEST_CHROMIUM to any Chromium's path" >&2 ;;
    postgresql) echo "the store tests need PostgreSQL: run 'sudo apt-get install postgresql' or set SNIPPETKIT_TEST_POSTGRES to a running server's URL" >&2 ;;
    redis-server) echo "the store tests need Redis: run 'sudo apt-get install redis-server' or set SNIPPETKIT_TEST_REDIS to a running server's URL" >&2 ;;
  esac
done
exit 1
