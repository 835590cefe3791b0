#!/usr/bin/env bash
# The browser seat's weight (issue 26): builds cmd/masque/internal/wasmweight
# (what a phone's seat will run: every game's rules and bots, the
# cryptography, the ledger, the table layer, the view model and its words)
# for GOOS=js GOARCH=wasm with and without -ldflags='-s -w' and -trimpath,
# and prints each binary's size raw, gzipped (-9) and, when the brotli
# command is there, brotli'd (-q 11), against the page's budget of 4 MB
# compressed. Not part of .ci/run: a developer's measurement.
#
#   .ci/wasm-weight.sh            # the table
#   WASM_WEIGHT_PKG=./x .ci/wasm-weight.sh   # weigh another main package
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
pkg="${WASM_WEIGHT_PKG:-./cmd/masque/internal/wasmweight}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mb() { awk -v b="$1" 'BEGIN { if (b < 100000) printf "%.1f kB", b / 1e3; else printf "%.2f MB", b / 1e6 }'; }
printf '%-34s %10s %10s %10s\n' "build of $pkg" raw gzip-9 brotli-11
for variant in "plain" "-ldflags=-s -w" "-trimpath" "-trimpath -ldflags=-s -w"; do
  flags=()
  case "$variant" in
    plain) ;;
    "-ldflags=-s -w") flags=(-ldflags=-s\ -w) ;;
    -trimpath) flags=(-trimpath) ;;
    *) flags=(-trimpath -ldflags=-s\ -w) ;;
  esac
  out="$dir/seat.wasm"
  GOOS=js GOARCH=wasm go build "${flags[@]}" -o "$out" "$pkg"
  raw=$(stat -c %s "$out")
  gz=$(gzip -9 -c "$out" | wc -c)
  br="-"
  if command -v brotli >/dev/null 2>&1; then
    br=$(mb "$(brotli -q 11 -c "$out" | wc -c)")
  fi
  printf '%-34s %10s %10s %10s\n' "$variant" "$(mb "$raw")" "$(mb "$gz")" "$br"
done
js="$(go env GOROOT)/lib/wasm/wasm_exec.js"
[ -f "$js" ] || js="$(go env GOROOT)/misc/wasm/wasm_exec.js"
printf '%-34s %10s %10s\n' "wasm_exec.js" "$(mb "$(stat -c %s "$js")")" "$(mb "$(gzip -9 -c "$js" | wc -c)")"
