module verifier

go 1.26

require filippo.io/edwards25519 v1.2.0
