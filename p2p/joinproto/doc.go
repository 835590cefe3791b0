// Package joinproto is the join protocol's pure part (/masque/join/2):
// its messages with their strict decoder, the creator's refusal codes,
// and the decisions on either side that need no network: whom the
// creator seats ([Admit]), what a joiner accepts of a roster offer
// ([CheckOffer]) and of the signatures that seal it ([CheckSigs]).
//
// It holds no stream and no clock, and builds for a browser (GOOS=js
// GOARCH=wasm). Package p2p's Table (the creator's side) and Node.Join
// (the joiner's) carry these messages over libp2p streams and apply these
// decisions.
//
// # The exchange
//
// A joiner opens a stream to the table's creator and sends a join
// request ([Request]). The creator answers join OK (the seat given, the
// seats taken, the total) or join refused ([RefusalCode], the table, the
// next free seat, a reason) and closes. Once seating closes it sends
// every seated joiner the roster offer (the roster and every seat's
// addresses); each joiner checks it ([CheckOffer]) and answers its roster
// signature; once it has every seat's, the creator sends them all
// ([CheckSigs]). docs/p2p.md gives each message's bytes.
package joinproto
