// Package roomcore is the replication protocol of a masque table as a
// pure state machine, in the style of etcd's raft: one seat's [Core]
// takes inputs, and says in a [Ready] what to persist, what to send and
// how the table ended. It has no goroutines, no network, no files and no
// clock of its own: every input carries its time. Package p2p drives it
// over libp2p streams and a state directory (p2p.Room); a browser seat
// can drive it over a WebSocket (it builds with GOOS=js GOARCH=wasm); a
// test drives many in one process over a simulated network (sim_test.go).
//
// # State
//
// The log (entries, their hashes, our replica's state hash after each),
// entries buffered ahead of the next position (pending, bounded per
// author), what each other seat reported (echoes, dones, sync answers:
// the positions it holds, its state hashes, which confirm ours), the
// position the table waits at and since when (the local timer), the
// timeout declarations of other seats for positions this seat is past
// or waits at, the seats' own statements that they stopped, and when each seat was
// last heard from.
//
// # Inputs ([Core.Step])
//
//   - InMsg: a frame from a seat: an entry (with the sender's state hash
//     after it), an echo (position, entry hash, state hash), a done (the
//     log's length and final state), a verdict. Every entry, the local
//     author's included, takes one path (onEntry): signature, position,
//     chain, then the replica's rules (an invalid one is an
//     invalid-entry verdict; two signed versions of one position an
//     equivocation; one that does not chain onto the log is held, and
//     its author's log fetched).
//   - InSynced: a sync answer ended; the server's log length then.
//   - InAuthored: the local author's body for the position it was asked
//     for (signed here, then handled like any entry).
//   - InTick: every Config.Tick: the countdown (Wait), the timeout
//     verdict, syncs of a stalled position, the end's wait.
//   - InTimer: a timer a Ready asked for ran out.
//   - InWake: the chat delivered this seat's messages (the end waits).
//
// A batch of messages may be stepped before [Core.Ready], so that the
// entries they bring are made durable by one sync.
//
// # Outputs ([Ready])
//
// MarkSigned (this seat signs: its state directory must say so before an
// entry leaves), Entries to write and sync, Save (the verdict record
// that ends the table), Frames to broadcast once those are durable (our
// own entries whole, others' as echoes, dones, verdicts), Syncs (fetch a
// seat's entries from a position), Timers, Author/StopAuthor (ask the
// local author for a position, or cancel a stale request), Waits (for a
// countdown), PeerErrors (faults of a seat, ignored), MissingDones, and,
// at the end, Outcome or Err.
//
// # Timers
//
// Ticks (Config.Tick, 500 ms by default) drive the rules that depend on
// time: a timeout verdict once the due seat has been silent for
// Config.Timeout, and only when this seat is not cut off from the table
// (it heard from a seat other than the due one within 20 ticks) and the
// entry is missing on the seats it reaches (a sync asked after the timer
// ran out was answered without it, or a seat declared the same timeout,
// and no seat reports holding it);
// ErrNoContact after three timeouts cut off; a sync of a stalled
// position every two ticks; a seat that signed entries in an earlier run
// asks the others before it signs again (up to 4 ticks once one answers);
// at the end, EndWait (10 ticks) for every seat's state hash and done.
// Two Ready timers: EchoDelay (an echo waits for 50 ms of quiet, at most
// EchoMaxDelay, and the seat's own entry replaces it) and FetchDelay (an
// entry echoed by a seat and still missing after 50 ms is fetched from
// it; RefetchDelay after an entry ahead of it, or after a fetch not
// answered).
//
// # Rules (docs/online.md, docs/protocol.md)
//
// No coalition of half the table or fewer can stop an honest seat: a
// peer's timeout verdict is adopted only when this seat's own timer and
// rule say the same, or, for a position it is past or the one it waits
// at (its own timer not yet run out), when more than half the table
// declared it (never one naming this seat: ErrTimedOut); a
// differing state hash stops this seat only when more than half the
// table reports it (then it stops with its own signed statement, which
// the others take instead of timing it out); after the game's last
// entry, the finished game stands once more than half the seats other
// than the one accused hold the same end.
package roomcore
