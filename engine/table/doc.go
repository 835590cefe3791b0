// Package table is the layer between a game's pure rules and package
// mental: the hidden-card table that every peer replicates.
//
// The rules say what must happen ([engine.Effect]: a hidden swap, a peek, a
// reveal); the table turns each need into the cryptographic step that
// establishes it (a swap proof in the move's entry, decryption shares from
// the right seats in the entries that follow) and feeds the established
// facts back to the rules. A [Table] is the replicated state: it validates
// and applies signed ledger entries, one position at a time, and names the
// seat at fault when an entry is wrong. A [Player] is one seat's private
// side: its keys, what it has seen, and the entries it authors.
//
// # Phases
//
//  1. Deal: unless the table's options fix the deal, every seat commits to
//     a random contribution, then every seat reveals it (mental coins); the
//     combined seed picks the deal. Mascarade deals face up, so the deal is
//     public and every card starts as a trivially masked ciphertext. A game
//     dealt face down ([HiddenDealer]) is dealt instead by every seat in
//     turn shuffling the whole deck with a proof; nobody learns the deal.
//     A game that opens with its own effects ([Opener], engine.Opening)
//     has no deal: its deck lies face up in canonical order and the rules'
//     opening effects (sets, shuffles of some slots, peeks, coins) run
//     before the first move.
//  2. Play: moves, with the proofs of the swaps they cause and of the
//     statements they make about the mover's own viewed card; then the
//     requests they cause, in order: decryption shares, seat by seat, for
//     every peek and reveal; a shuffle of some slots by some seats; a
//     joint coin share by every seat; sets of slots to face-up cards.
//  3. Keys: when the game is over and the table publishes keys, every seat
//     posts its secret key, so `masque replay --reveal` can show every card.
//
// # Entry bodies
//
// A body starts with one kind byte (see [BodyKind]); the layouts are in
// body.go and docs/protocol.md.
package table
