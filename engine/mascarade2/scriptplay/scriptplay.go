// Package scriptplay plays a Mascarade (2nd edition) script through the
// real stack: a local table where every seat has its own keys and replica,
// every swap is proven, every peek and reveal is made of decryption
// shares, and every entry is signed, encoded, decoded and validated as over
// the network. Its semantics are those of the rules-level oracle driver
// (engine/mascarade2/mascarade2test): responders who are not listed pass.
// The runner itself is the family's (engine/masquerade/localplay).
package scriptplay

import (
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/localplay"
	"github.com/masque-games/masque/engine/table"
)

// rules bind the real-stack runner to Mascarade (2nd edition).
var rules = localplay.Rules[*mascarade2.State]{
	Game:          mascarade2.Game{},
	ParseMove:     mascarade2.ParseMove,
	HasSecretSwap: mascarade2.HasSecretSwap,
}

// Run parses and plays src (load reads scenario files, may be nil). It
// returns the local table (also on an illegal line, as it was before that
// line) and an error naming the line.
func Run(src []byte, load mascarade2.ScenarioLoader, publishKeys bool) (*local.Table, error) {
	sc, err := mascarade2.ParseScript(src, load)
	if err != nil {
		return nil, err
	}
	gameOpts, err := sc.Options.MarshalBinary()
	if err != nil {
		return nil, &mascarade2.ScriptError{Line: 1, Err: err}
	}
	opts := table.Options{Game: gameOpts, Deal: sc.Deal, PublishKeys: publishKeys}
	return rules.Run(sc.Options.Players, opts, sc.Lines)
}

// State returns the rules state of a local Mascarade (2nd edition) table.
func State(lt *local.Table) *mascarade2.State {
	s, _ := rules.State(lt)
	return s
}
