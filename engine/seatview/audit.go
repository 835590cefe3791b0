package seatview

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// Auditor tells a whole transcript for an auditor ('masque replay'), entry
// by entry from the first, in public words, and, when the keys every seat
// published at the end are given ([Opener]), what every hidden card was:
// a game's [Viewer] provides one ([Viewer.Auditor]).
type Auditor interface {
	// Start catches up with table t before its first entry (a scripted
	// table deals before it); it returns the lines it told.
	Start(t *table.Table) ([]string, error)
	// Entry tells entry e, which t has just applied, and returns its
	// lines.
	Entry(t *table.Table, e *ledger.Entry) ([]string, error)
	// Finish ends the last step once every entry was told; it returns
	// the lines it told.
	Finish(t *table.Table) []string
	// Deal is the deal as dealt face up, when the game deals face up
	// (nil otherwise); Steps are the steps of play so far.
	Deal() []AuditCard
	Steps() []AuditStep
}

// Opener opens a transcript's hidden cards with the sum of the card keys
// every seat published at the end.
type Opener interface {
	// Card opens a card (-1: it opens to no card of the game).
	Card(c mental.Card) engine.Card
	// Bit opens an exponential-ElGamal ballot entry: 0 or 1 (ok=false for
	// any other value).
	Bit(ct mental.Ciphertext) (int, bool)
}

// AuditCard is a card where it lies.
type AuditCard struct {
	Slot string `json:"slot"`
	Card string `json:"card"`
}

// AuditSwap is one hidden swap; Outcome is set with the published keys
// only.
type AuditSwap struct {
	By    string    `json:"by"`
	Slots [2]string `json:"slots"`
	// Outcome: "real" (the cards were exchanged), "pretended" (nothing
	// moved) or "same-card" (both slots held the same character, so
	// nothing could be seen either way).
	Outcome string `json:"outcome,omitempty"`
}

// AuditStep is one move and what followed from it.
type AuditStep struct {
	Pos      uint64         `json:"position"`
	Turn     int            `json:"turn"`
	Player   string         `json:"player"`
	Move     string         `json:"move"`
	Swaps    []AuditSwap    `json:"swaps,omitempty"`
	Saw      []AuditCard    `json:"saw,omitempty"`   // opened: what the peeks showed their viewer
	Shown    []AuditCard    `json:"shown,omitempty"` // opened: the cards shown to all but their owner
	Revealed []AuditCard    `json:"revealed,omitempty"`
	Coins    map[string]int `json:"coins"`
	Court    int            `json:"court"`
	Cards    []AuditCard    `json:"cards,omitempty"`  // opened: who held which card after the step
	Secret   []string       `json:"secret,omitempty"` // opened: the secret night actions
}
