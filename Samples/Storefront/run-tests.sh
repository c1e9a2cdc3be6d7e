#!/usr/bin/env bash
# Builds and tests the Storefront sample (its own package: Hummingbird comes from the package mirror).
# Usage: Samples/Storefront/run-tests.sh   (from anywhere; extra arguments go to `swift test`)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
swift build --build-tests
swift test --skip-build "$@"
