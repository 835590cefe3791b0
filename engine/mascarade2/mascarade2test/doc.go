// Package mascarade2test plays Mascarade (2nd edition) rules forward with
// an omniscient oracle in place of the cryptographic table: it knows the
// true card in every slot, carries out hidden swaps with their real secret
// bit, answers every reveal with the true cards and ignores the privacy of
// peeks. Rules tests, random playouts and bot games use it; the
// real-crypto runner (engine/table) follows the same semantics.
//
// # Driving a script
//
// [RunScript] plays a script (see [mascarade2.Script]) line by line:
//
//  1. While a challenge window is open and the line's seat is not the
//     next responder, the next responder passes ("responders not listed
//     pass").
//  2. The line becomes a move with [mascarade2.ParseMove] against the
//     current state and is played with [Table.Play].
//  3. After the last line, any still-open challenge window is closed the
//     same way, with passes.
//
// [Table.Play] applies the move, then carries out its effects in order:
// a swap exchanges the two true cards if the secret bit is set, a peek
// records what the viewer saw, a show-others (the Princess) records what
// every seat but the owner saw, a reveal is answered at once with the true
// cards via [mascarade2.State.Know], whose own effects join the queue.
package mascarade2test
