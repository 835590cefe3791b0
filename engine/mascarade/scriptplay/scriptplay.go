// Package scriptplay plays a Mascarade script through the real stack: a
// local table where every seat has its own keys and replica, every swap is
// proven, every peek and reveal is made of decryption shares, and every
// entry is signed, encoded, decoded and validated as over the network.
// Its semantics are those of the rules-level oracle driver
// (engine/mascarade/mascaradetest): responders who are not listed pass.
// The runner itself is the family's (engine/masquerade/localplay).
package scriptplay

import (
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/localplay"
	"github.com/masque-games/masque/engine/table"
)

// rules bind the real-stack runner to Mascarade.
var rules = localplay.Rules[*mascarade.State]{
	Game:          mascarade.Game{},
	ParseMove:     mascarade.ParseMove,
	HasSecretSwap: mascarade.HasSecretSwap,
}

// Run parses and plays src. It returns the local table (also on an illegal
// line, as it was before that line) and an error naming the line.
func Run(src []byte, publishKeys bool) (*local.Table, error) {
	sc, err := mascarade.ParseScript(src)
	if err != nil {
		return nil, err
	}
	gameOpts, err := sc.Options.MarshalBinary()
	if err != nil {
		return nil, &mascarade.ScriptError{Line: 1, Err: err}
	}
	opts := table.Options{Game: gameOpts, Deal: sc.Deal, PublishKeys: publishKeys}
	return rules.Run(sc.Options.Players, opts, sc.Lines)
}

// State returns the rules state of a local Mascarade table.
func State(lt *local.Table) *mascarade.State {
	s, _ := rules.State(lt)
	return s
}
