// Package mental is masque's cryptographic card kernel: cards hidden from
// every player with no trusted dealer, hidden swaps nobody can fake, peeks
// only the viewer can read, and proofs about one's own hidden card.
//
// It is a pure library over ristretto255: no I/O, no goroutines, no
// knowledge of any game. The protocol, every label, every message layout,
// what each operation leaks and what it costs are in SPEC.md beside this
// file; comments cite its sections.
//
// # The life of a card
//
// Every seat makes a [SecretKey] and publishes its [PublicKey] with a proof
// of knowledge bound to the table, the seat and its network identity
// ([SecretKey.ProvePublic]); [NewJointKey] accepts only keys whose proofs
// verify. A card is a tuple of ElGamal ciphertexts under the joint key
// ([Card]); a face-up card is the trivial encryption ([FaceUp]).
// [JointKey.Swap] re-masks two cards and exchanges them or not, with a proof
// that reveals nothing about which. [SecretKey.Share] makes a decryption
// share with its proof; a peek combines every other seat's share with the
// viewer's own ([SecretKey.Peek]), a public reveal every seat's ([Open]).
// [SecretKey.EncryptShare] sends a share to one recipient inside the public
// log, for reveals to everyone but the owner. [SecretKey.ProveHolding]
// proves "my card is one of S". [JointKey.Shuffle] permutes a deck with a
// proof; ballots and joint coins complete the kit.
//
// # Proofs
//
// Every proof goes through one Fiat–Shamir transcript that binds the
// protocol label, the table, the log position, the prover's seat and the
// whole statement before the commitments ([Context], SPEC.md §2). All
// sigma proofs share one engine of linear relations with AND and OR
// composition ([Formula], [ProveFormula]), and any number of proofs can be
// verified with one multi-scalar multiplication ([Batch]).
//
// # Constant time
//
// Provers handle secrets (keys, swap bits, which OR branch is real,
// permutations) with constant-time scalar arithmetic and multi-scalar
// multiplications; nothing branches on them. Decoders and verifiers are
// variable time over public data only.
package mental
