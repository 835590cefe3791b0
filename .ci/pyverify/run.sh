#!/usr/bin/env bash
# The independent pure-Python verifier (written from docs/protocol.md and
# mental/SPEC.md only) against every conformance vector. Exits non-zero on
# any mismatch with manifest.json.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v python3 >/dev/null 2>&1; then
  echo "pyverify skipped: python3 is not installed"
  exit 0
fi
python3 killlookup_vector.py
exec python3 run_vectors.py "$@"
