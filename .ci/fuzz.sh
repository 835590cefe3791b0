#!/usr/bin/env bash
# Bounded fuzzing: every fuzz target runs for a fixed time (issue 6). The
# decoders that face peers and files (wire frames, entries, bodies, rosters,
# transcripts, scripts) and the engine applying arbitrary entries get
# FUZZ_LONG; the cryptographic decoders, already fuzzed by their own seed
# corpora in `go test`, get FUZZ_SHORT.
set -euo pipefail
cd "$(dirname "$0")/.."
long=${FUZZ_LONG:-20s}
short=${FUZZ_SHORT:-4s}
run() { # package target time
  echo "== fuzz $1 $2 ($3)"
  go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$3"
}
run ./p2p FuzzDecode "$long"
run ./p2p FuzzJoinMessage "$long"
run ./engine/ledger FuzzEntry "$long"
run ./engine/ledger FuzzRoster "$long"
run ./engine/table FuzzBody "$long"
run ./engine/table FuzzTranscript "$long"
run ./engine/table FuzzApply "$long"
run ./engine/mascarade FuzzScript "$long"
run ./engine/mascarade2 FuzzScript "$long"
run ./engine/mascarade FuzzUnmarshalOptions "$short"
run ./engine/mascarade2 FuzzUnmarshalOptions "$short"
run ./engine/mascarade2 FuzzScenario "$short"
for t in FuzzUnmarshalCard FuzzUnmarshalPublicKey FuzzUnmarshalSwapProof FuzzUnmarshalShare \
  FuzzUnmarshalEncryptedShare FuzzUnmarshalBallot FuzzUnmarshalCoin FuzzCoinStream \
  FuzzUnmarshalSigmaProof FuzzShuffleProofDecode; do
  run ./mental "$t" "$short"
done
run ./mental/internal/msm FuzzMultiScalarMult "$short"
