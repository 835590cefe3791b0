package table

import (
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
)

// Replay checks a transcript from scratch: the roster signatures, every
// card key proof, then every entry's position, hash chain, signature,
// proofs and rules, in order. It returns the table after the last entry;
// on the first bad entry it returns the table before it and a *Fault.
func Replay(tr *ledger.Transcript, game Game) (*Table, error) {
	if err := tr.VerifyRoster(); err != nil {
		return nil, err
	}
	t, err := New(tr.Roster, game)
	if err != nil {
		return nil, err
	}
	for i, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			return t, err
		}
		_ = i
	}
	return t, nil
}

// Games maps game names to games, for auditing transcripts of any game.
type Games map[string]Game

// Lookup returns the game a roster names.
func (g Games) Lookup(name string) (Game, error) {
	game, ok := g[name]
	if !ok {
		return nil, fmt.Errorf("unknown game %q", name)
	}
	return game, nil
}
