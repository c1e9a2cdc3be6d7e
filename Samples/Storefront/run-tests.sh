#!/usr/bin/env bash
# Builds and tests the Storefront sample (its own package: its dependencies come from the package mirror).
# The browser test (Tests/StorefrontTests/Browser) drives Debian's headless chromium through chromedriver;
# they are installed here when missing (Tests/Browser/install-chromium.sh, bounded), and the test skips
# itself, saying why, when they cannot be had.
# Usage: Samples/Storefront/run-tests.sh   (from anywhere; extra arguments go to `swift test`)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
bash ../../Tests/Browser/install-chromium.sh
if ! command -v chromedriver >/dev/null 2>&1 && [ -z "${CHROMEDRIVER:-}" ]; then
    echo "run-tests.sh: no chromedriver: the storefront's browser test will be skipped"
fi
swift build --build-tests
swift test --skip-build "$@"
