#!/usr/bin/env bash
# Run before the tests: the browser tests drive Debian's chromium (playwright-core downloads no
# browser). Installs it when it is missing and this user may (root with apt-get, as in CI);
# otherwise says what to do.
set -euo pipefail
bin="${SNIPPETKIT_TEST_CHROMIUM:-/usr/bin/chromium}"
[ -x "$bin" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser tests" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium </dev/null
  [ -x "$bin" ] && exit 0
fi
echo "the browser tests need Chromium at $bin: run 'sudo apt-get install chromium' or set SNIPPETKIT_TEST_CHROMIUM" >&2
exit 1
