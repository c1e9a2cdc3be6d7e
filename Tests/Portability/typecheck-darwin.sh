#!/usr/bin/env bash
# Type-checks every module of the package as macOS would compile it, on Linux, without a Mac or its SDK.
#
#     bash Tests/Portability/typecheck-darwin.sh
#
# How: a copy of Sources/ has its platform conditions turned to macOS's values (canImport(Darwin) and
# os(macOS) true; canImport(Glibc), canImport(Musl) and os(Linux) false), and a stand-in module named
# Darwin re-exports the C library that is here. Each module is then type-checked (bodies included) in
# dependency order with swiftc, in Swift 6 mode.
#
# What it proves: no file uses Glibc or Linux-only code outside an #if that macOS skips; every #if has a
# Darwin branch where one is needed; the Darwin branches and all unguarded code type-check (with POSIX
# names as this C library spells them). Before that, it fails on any `Glibc.`/`Musl.` name, `import Glibc`
# or `/proc/` path outside a Linux-only #if.
# What it does not prove: that Darwin's own C types match (an Int32 here may be an Int there), that
# Apple's Foundation has each API (swift-corelibs-foundation is close, not identical), or that the
# code links and runs on macOS. A macOS CI runner is the only full check.
#
#     bash Tests/Portability/typecheck-darwin.sh --scan-only [FOLDER]   # only the first check (default: Sources)
set -euo pipefail
cd "$(dirname "$0")/../.."
scan="Sources"
if [[ "${1:-}" == --scan-only ]]; then scan="${2:-Sources}"; fi

echo "== unguarded Linux-only code in $scan"
python3 - "$scan" <<'PY'
import os, re, sys
linux_only = re.compile(r'canImport\((Glibc|Musl)\)|os\(Linux\)')
bad = []
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        if not name.endswith(".swift"): continue
        path = os.path.join(root, name)
        stack = []  # per #if: whether the current branch is Linux-only
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            text = line.strip()
            if text.startswith("#if "):
                stack.append(bool(linux_only.search(text)))
            elif text.startswith("#elseif ") or text == "#else":
                if stack: stack[-1] = bool(linux_only.search(text))
            elif text.startswith("#endif"):
                if stack: stack.pop()
            elif not text.startswith("//") and re.search(r'\b(Glibc|Musl)\b|"/proc/', text) and not any(stack):
                bad.append(f"{path}:{number}: {text}")
if bad:
    print("Linux-only code outside a Linux-only #if:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("none")
PY
[[ "${1:-}" == --scan-only ]] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== Sources with macOS's conditions"
cp -R Sources "$work/Sources"
find "$work/Sources" -name '*.swift' -print0 | xargs -0 sed -i -E \
    -e 's/canImport\((Glibc|Musl)\)/false/g' -e 's/canImport\(Darwin\)/true/g' \
    -e 's/os\(Linux\)/false/g' -e 's/os\(macOS\)/true/g'
mkdir -p "$work/modules"
# Darwin's own names that this C library lacks, with Darwin's values and types.
printf '@_exported import Glibc\npublic let SO_NOSIGPIPE: Int32 = 0x1022\n' > "$work/Darwin.swift"
swiftc -parse-as-library -module-name Darwin -emit-module -emit-module-path "$work/modules/Darwin.swiftmodule" "$work/Darwin.swift"

# C modules (CRecoChecksum, CRecoEscaping: plain C, no platform #if that Swift sees) are imported through their module maps.
c_modules=()
for include in Sources/*/include; do c_modules+=(-I "$PWD/$include"); done

check() {  # check MODULE [executable]
    local files=() flags=(-parse-as-library)
    while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$work/Sources/$1" -name '*.swift' -print0 | sort -z)
    [[ "${2:-}" == executable ]] && flags=()
    echo "  $1 (${#files[@]} files)"
    if [[ "${2:-}" == executable ]]; then
        swiftc -typecheck -swift-version 6 -module-name "$1" -package-name RecoKit -I "$work/modules" "${c_modules[@]}" "${files[@]}"
    else
        # One package name for every module, as SwiftPM gives them: `package` declarations are seen across modules.
        swiftc -emit-module -swift-version 6 "${flags[@]}" -module-name "$1" -package-name RecoKit -I "$work/modules" "${c_modules[@]}" \
            -emit-module-path "$work/modules/$1.swiftmodule" "${files[@]}"
    fi
}
check RecoKit
check RecoTemplates
check RecoHTTP
check RecoTracking
check RecoVendors
check RecoDestinations
check RecoRelay
check RecoPage
check RecoKitTesting
check RecoKitCLI executable
echo "every module type-checks with macOS's conditions"
