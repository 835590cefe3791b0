// Package bot plays Mascarade (1st edition) plausibly: it claims what it
// believes, sometimes bluffs, and challenges when it has reason to.
//
// A [Bot] sees only what its seat may see: the public state, the public
// effects and reveals, its own peeks and its own secret swap bits. Its
// [Tracker] keeps, for every slot, the set of characters that may lie
// there: exact after the face-up deal, a peek or a reveal; merged when
// someone else swaps two cards (either may have moved); exchanged when the
// bot swaps itself.
//
// Bots are deterministic given their seed (math/rand/v2 PCG), and hold no
// global state.
package bot
