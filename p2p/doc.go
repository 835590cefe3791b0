// Package p2p is masque's network layer: a libp2p node per player, the
// roster agreement that seats players at a table, and the replication of a
// game's signed log among the seats with no host.
//
// p2p carries opaque entry bodies between authenticated peers and knows no
// game: the rules are behind the [Replica] interface, which the engine's
// table layer implements, and the local player's moves come from an
// [Author].
//
// # Pieces
//
//   - [Node]: a libp2p host (Ed25519 identity from package identity, TCP and
//     QUIC, Noise, yamux; no relay, no libp2p mDNS) serving three stream
//     protocols: [ProtocolLog], [ProtocolSync] and [ProtocolJoin].
//   - [Table] and [Node.Join]: a creator opens a table, joiners ask it for a
//     seat, and every seat signs the same ledger.Roster before anything is
//     played. The result, a [Seating], is what store.Create needs.
//   - [Room]: one game's replication. [Node.OpenRoom] replays the state
//     directory through the replica; [Room.Run] plays to the end or to a
//     [Verdict].
//
// Discovery on the LAN is package lobby; keys are package identity; the
// state directory is package store. Each protocol's messages and
// decisions are a package of their own, pure (no network, no clock):
// roomcore (replication), joinproto (the roster agreement), watchproto
// (spectators); chatproto is the table chat's.
//
// # Replication
//
// The replica says which position comes next and which seat must author it.
// The author signs the entry over (game id, position, seat, previous hash,
// body), applies it through the same path as everyone else's entries,
// appends it to its state directory (fsync), then sends it to every peer.
// Every peer that accepts an entry persists it and sends it, with its state
// hash after it, to every peer: one lost link does not stall the table, and
// every pair of peers compares state hashes at every position. Entries that
// arrive early are buffered (up to 1024 positions ahead). A peer that was
// away asks the others for what it missed over [ProtocolSync], on start and
// whenever it has waited two ticks without progress.
//
// # Faults
//
//   - An entry whose signature does not verify is dropped and reported
//     (Config.OnPeerError) against the peer that sent it: it proves nothing
//     about its claimed author.
//   - Two different validly signed entries by one seat for one position end
//     the table with a [VerdictEquivocation] holding both, ordered by hash;
//     peers that receive it adopt it, since it proves itself.
//   - An entry that fails Replica.Apply or does not chain ends the table
//     with [VerdictInvalidEntry]; every honest peer reaches it on its own.
//   - A state hash that differs from ours proves nothing others could
//     check (its sender may lie): it is logged against the sender and
//     the table goes on. Only when most other seats (at least two)
//     disagree with this peer is its own replica the odd one: [Room.Run]
//     then returns a local error blaming nobody, and the others time it
//     out like any silent seat. At the end of the game [Room.Run] waits
//     (RoomConfig.EndWait) for every seat's state hash after the last
//     entry. [VerdictDivergence] is still decoded (older peers declared
//     it) but no longer declared or adopted.
//   - A seat silent past RoomConfig.Timeout ends the table with a
//     [VerdictTimeout] signed by the declaring peer; RoomConfig.OnWait shows
//     the countdown. A peer already past that position (it holds the
//     entry the others waited for) adopts the timeout once most other
//     seats have declared it, and the log ends before that position on
//     every peer; sync answers carry the verdict to a peer that was away.
//
// Verdicts are stored in the state directory and sent to every peer.
//
// # Frames
//
// Every stream carries frames: a 4-byte big-endian length and that many
// bytes, at most Config.MaxFrame ([DefaultMaxFrame]), and far less for a
// stream's first frame ([MaxHelloFrame], [MaxSyncReqFrame],
// [MaxJoinReqFrame]); a longer frame is refused before it is read and the
// stream is reset. A frame's buffer grows as its payload arrives, reserved
// in the stream's resource-manager scope. The first byte of a
// frame is its message type; fields are cryptobyte-encoded and decoded
// strictly. docs/p2p.md lists every message.
package p2p
