#!/usr/bin/env bash
# The seat in a browser (issue 26) runs the engine, the cryptography, the
# ledger, the table layer and the view code compiled to WebAssembly. This
# check keeps them compiling for GOOS=js GOARCH=wasm: every package of the
# module must build for js/wasm except the native shell listed below (the
# terminal UI, the libp2p network and the command itself). A new package
# is checked by default; one that cannot build for wasm must be added to
# the list below, with its reason, on purpose.
#
# Test files are not built: a package's tests may use native things
# (engine/ledger's tests run a libp2p room; the web screen's drive a local
# chromium).
#
# Then, when Node is there, the cryptography's vectors are computed by the
# wasm build and compared with the stored ones, and the seat's would-be
# contents play and verify games under wasm.
#
# About a minute on a cold build cache on 2 cores, seconds warm.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
mod=$(go list -m)
# The native shell: package, then why it cannot build for js/wasm today.
native=(
  "$mod/cmd/masque"                       # the command: the terminal UI, libp2p
  "$mod/cmd/masque/internal/tui"          # bubbles' clipboard has no js/wasm code
  "$mod/cmd/masque/internal/netsession"   # libp2p's webrtc transport (pion) does not build for js/wasm
  "$mod/p2p"                              # the libp2p room itself (same)
  "$mod/cmd/masque/internal/phone"        # the phones' server (net/http, the libp2p room); the phone's own seat is phone/seatwasm, built here
  "$mod/cmd/masque/internal/browsertest"  # the browser tests' shared Chromium (chromedp starts processes)
)
pkgs=$(go list ./... | grep -vxF -f <(printf '%s\n' "${native[@]}"))
n=$(printf '%s\n' $pkgs | wc -l)
if ! GOOS=js GOARCH=wasm go build -o /dev/null $pkgs 2>/tmp/wasm-build.$$; then
  cat /tmp/wasm-build.$$ >&2
  rm -f /tmp/wasm-build.$$
  echo "wasm: a package the browser seat needs no longer builds for GOOS=js GOARCH=wasm (see above);" >&2
  echo "      fix it (build tags, or keep native-only imports out of it), or, if it is native-only on purpose, add it to .ci/wasm-build.sh's list" >&2
  exit 1
fi
rm -f /tmp/wasm-build.$$
echo "wasm: $n packages build for GOOS=js GOARCH=wasm (${#native[@]} native-only packages not built)"

# The cryptography's conformance vectors, computed by the wasm build in
# Node (go test runs it through Go's go_js_wasm_exec): the same bytes as
# native, with and without the profile a seat's wasm is built with
# (mental/mentalbench/wasmbench/wasm.pgo). About 30 s cold.
if command -v node >/dev/null 2>&1; then
  export PATH="$PATH:$(go env GOROOT)/lib/wasm:$(go env GOROOT)/misc/wasm"
  GOOS=js GOARCH=wasm go test -short -count=1 -run 'TestVectors|TestShuffleVector' ./mental
  # The wasm build's own scalar multiplication (mental/internal/edwards32,
  # used by ristretto and msm on js/wasm only) against filippo.io/edwards25519,
  # under wasm: every field operation, the multiplications, edge inputs
  # (about 90 s on this loaded 2-core machine, msm's sums the most).
  GOOS=js GOARCH=wasm go test -count=1 ./mental/internal/edwards32 ./mental/internal/ristretto ./mental/internal/msm
  GOOS=js GOARCH=wasm go test -short -count=1 -pgo="$PWD/mental/mentalbench/wasmbench/wasm.pgo" -run 'TestVectors|TestShuffleVector' ./mental
  # The seat's would-be contents at work under wasm: a seat at a local
  # table of bots in each game, and stored Grimm and Mafia games replayed
  # and verified (about 25 s).
  GOOS=js GOARCH=wasm go test -count=1 ./cmd/masque/internal/wasmweight
else
  echo "wasm: no node: the vectors were not computed under wasm"
fi
