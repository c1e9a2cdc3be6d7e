#!/usr/bin/env bash
# Writes the preview gallery of the sample payloads and takes PNG screenshots of every page with
# headless Chromium, so anyone can look at the real rendering in one command:
#
#     Samples/preview-screenshot.sh [OUTPUT_DIR]        # default: preview/
#
# Screenshots go to OUTPUT_DIR/screenshots/: a desktop shot (1280 px wide) and a phone shot (390 px wide)
# of every page, the index included, each exactly as tall as the page at that width (headless Chromium
# shoots a window, so each page is first measured in that browser at that width; set
# RECOKIT_SCREENSHOT_HEIGHT to force a height). Chromium comes from Debian (apt-get install chromium);
# the script installs it when it is missing and it runs as root. Images cannot load offline, so the
# shots also show the preview's "image unavailable" placeholders.
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
measure() {  # measure PAGE WIDTH: the page's height in CSS pixels at that width, as Chromium lays it out
    local frame="$shots/.measure.html"
    cat >"$frame" <<HTML
<!doctype html><html><head><title>unmeasured</title></head><body style="margin:0">
<iframe id="page" scrolling="no" src="file://$(realpath "$1")" style="width:$2px;height:400px;border:0"></iframe>
<script>
document.getElementById("page").addEventListener("load", function () {
  var page = this.contentDocument;
  document.title = "height " + Math.ceil(Math.max(page.documentElement.scrollHeight, page.body.scrollHeight));
});
</script></body></html>
HTML
    "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files --virtual-time-budget=2000 \
        --dump-dom "file://$(realpath "$frame")" 2>/dev/null | sed -n 's/.*<title>height \([0-9]*\)<\/title>.*/\1/p' | head -1
    rm -f "$frame"
}
shoot() {  # shoot PAGE WIDTH PNG
    local height="${RECOKIT_SCREENSHOT_HEIGHT:-$(measure "$1" "$2")}"
    if [[ -z "$height" ]]; then
        echo "  $3: could not measure the page; using 4000 px" >&2
        height=4000
    fi
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --virtual-time-budget=2000 --window-size="$2,$height" --screenshot="$3" "file://$(realpath "$1")" >/dev/null 2>&1
    echo "  $3 (${2}×${height})"
}
echo "Screenshots:"
for page in "$out"/*.html; do
    name="$(basename "$page" .html)"
    shoot "$page" 1280 "$shots/$name.png"
    shoot "$page" 390 "$shots/$name.phone.png"
done
exit "$status"
