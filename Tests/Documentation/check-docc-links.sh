#!/usr/bin/env bash
# Checks that every symbol link (``Name``) and article link (<doc:Name>) in the DocC catalogs under
# Sources/ resolves, with the toolchain's own docc and the symbol graphs of the built modules.
#
#     swift build && bash Tests/Documentation/check-docc-links.sh
#
# Only the catalogs' own pages are held to it (warnings about `///` comments in the sources are not
# counted). The Swift blocks of the catalogs are compiled by DocumentationSnippetTests.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v docc >/dev/null || ! command -v swift-symbolgraph-extract >/dev/null; then
    echo "skipped: this toolchain has no docc or swift-symbolgraph-extract"
    exit 0
fi
modules="$(swift build --show-bin-path)/Modules"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
c_modules=()
for include in Sources/*/include; do c_modules+=(-I "$include"); done
for catalog in Sources/*/*.docc; do
    module="$(basename "$catalog" .docc)"
    mkdir -p "$work/$module"
    # C modules (CRecoChecksum, CRecoEscaping) are found by their module maps in Sources/*/include.
    swift-symbolgraph-extract -module-name "$module" -I "$modules" "${c_modules[@]}" -target "$(uname -m)-unknown-linux-gnu" \
        -minimum-access-level public -output-dir "$work/$module" >/dev/null
    report="$(docc convert "$catalog" --additional-symbol-graph-dir "$work/$module" --analyze \
        --output-path "$work/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "recokit.$module" 2>&1 || true)"
    # A problem in a catalog's own page is followed by "--> PAGE.md:LINE:COLUMN".
    problems="$(grep -B1 -E '^ *--> [^ /]+\.md:' <<<"$report" | grep -E '^(warning|error):' || true)"
    if [[ -n "$problems" ]]; then
        echo "$catalog:"; echo "$problems" | sed 's/^/  /'
        failed=1
    else
        echo "$catalog: every link resolves"
    fi
done
exit "$failed"
