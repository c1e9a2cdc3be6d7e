#!/usr/bin/env bash
# Writes the preview gallery of the sample payloads and takes PNG screenshots of every page with
# headless Chromium, so anyone can look at the real rendering in one command:
#
#     Samples/preview-screenshot.sh [OUTPUT_DIR]        # default: preview/
#
# Screenshots go to OUTPUT_DIR/screenshots/: one desktop shot per page (1280 px wide) and a phone
# shot (390 px wide) of each payload page, each tall enough for the whole page (headless Chromium
# shoots the window, so the height is estimated from the page's widgets and products; set
# RECOKIT_SCREENSHOT_HEIGHT to force one). Chromium comes from Debian (apt-get install chromium);
# the script installs it when it is missing and it runs as root. Images cannot load offline, so the
# shots also show how the alt text and the image placeholders look.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-preview}"
shots="$out/screenshots"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$browser" ]]; then
    if [[ "$(id -u)" == 0 ]]; then
        echo "installing chromium…" >&2
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
        browser="$(command -v chromium)"
    else
        echo "error: chromium is not installed (sudo apt-get install chromium)" >&2
        exit 1
    fi
fi

swift build --product recokit >&2
status=0
.build/debug/recokit preview -o "$out" || status=$?

mkdir -p "$shots"
shoot() {  # shoot PAGE WIDTH HEIGHT PNG
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$2,$3" --screenshot="$4" "file://$(realpath "$1")" >/dev/null 2>&1
    echo "  $4"
}
echo "Screenshots:"
shoot "$out/index.html" 1280 900 "$shots/index.png"
for page in "$out"/*.html; do
    name="$(basename "$page" .html)"
    [[ "$name" == index ]] && continue
    widgets="$( (grep -o 'class="card" id="widget-' "$page" || true) | wc -l)"
    products="$( (grep -o 'class="reco-item"' "$page" || true) | wc -l)"   # each product appears in 3 layouts
    height="${RECOKIT_SCREENSHOT_HEIGHT:-$((900 + widgets * 2600 + products * 35))}"
    shoot "$page" 1280 "$height" "$shots/$name.png"
    shoot "$page" 390 "$((height * 2))" "$shots/$name.phone.png"
done
exit "$status"
