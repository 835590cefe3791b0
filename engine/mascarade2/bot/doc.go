// Package bot plays Mascarade (2nd edition) plausibly: it announces what
// it believes, sometimes bluffs, and challenges when it has reason to.
//
// A [Bot] sees only what its seat may see: the public state, the public
// effects and reveals, its own peeks, the cards the Princess shows it and
// its own secret swap bits. Its [Tracker] keeps, for every slot, the set of
// masks that may lie there: exact after the face-up deal, a peek, a show
// or a reveal; merged when someone else swaps two cards (either may have
// moved); exchanged when the bot swaps itself. The Puppeteer moves players,
// not cards, so slots keep their knowledge.
//
// Bots are deterministic given their seed (math/rand/v2 PCG), and hold no
// global state.
package bot
