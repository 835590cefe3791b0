package mascarade

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
)

// ed names the 1st edition to the family's rules ([masquerade.Of]).
type ed struct{}

// Edition returns the 1st edition.
func (ed) Edition() *masquerade.Edition[Options] { return &first }

// first is Mascarade, 1st edition: data, and the powers that need no
// choice. It is never written to after initialisation.
var first = masquerade.Edition[Options]{
	Spec: masquerade.Spec{
		Game:       GameName,
		Title:      "Mascarade",
		Cards:      characters,
		BoxCoins:   BoxCoins,
		MinPlayers: MinPlayers,
		MaxPlayers: MaxPlayers,

		Variants:         true,
		RevealedMustSwap: true,
		SpyCentre:        true,
		Shared:           Peasant,
		Choices: map[engine.Card]masquerade.Choice{
			Bishop:     masquerade.ChoiceRichest,
			Witch:      masquerade.ChoicePurses,
			Inquisitor: masquerade.ChoiceQuestion,
			Fool:       masquerade.ChoiceFool,
			Spy:        masquerade.ChoiceSpy,
		},
		RichestTake:    2,
		RuleNotRichest: RuleNotRichest,
		RuleRevealed:   RuleRevealedSwap,
		FoolTake:       1,
		Text: masquerade.Texts{
			TurnMoves: "swaps, peeks or claims",
			Revealed:  "your card was revealed during the previous turn: swap or pretend to",
			NotYours:  "slot %d is not one of your cards",
			BadSwap:   "cannot swap with slot %d (the same card, another player's guard, your own card in the standard game, or no such slot)",
			BadClaim:  "cannot claim with slot %d (not your card, or your guard)",
			BadFool:   "the Fool swaps two cards of other players (no centre, no guard, two different players)",
			SpyWhat:   "looks at another player's card or a centre card (not a guard)",
			SpyArg:    "SLOT",
			Centre:    "centre",
		},
		Power: power,

		SetupHelp: games.SetupHelp{Default: "the 1st edition plays the book's recommended characters for the player count"},
		Configure: configure,
		// A 1st edition script names no files.
		ParseScript: masquerade.ScriptParser(func(src []byte, _ games.Loader) (*Script, error) { return ParseScript(src) }),
	},
	Normalize: Options.Normalize,
	Validate:  Options.Validate,
	Parts: func(o Options) ([]string, []engine.Card, int, int) {
		return o.Players, o.Set, o.Coins, o.Center
	},
	Make: func(players []string, set []engine.Card, coins int) Options {
		return Options{Players: players, Set: set, Coins: coins}
	},
	Append:    Options.appendBinary,
	Unmarshal: UnmarshalOptions,
}

// power applies a power that needs no choice: with choose, owner o must
// still choose, and nothing happens yet.
func power(w masquerade.Work, o Contender, choose bool) {
	if choose {
		return
	}
	c, p := w.Core(), o.Seat
	switch c.Claimed {
	case Judge:
		c.Purse[p] += c.CourtCoins
		c.CourtCoins = 0
	case Bishop:
		masquerade.Transfer(&c.Purse[c.Richest(p)[0]], &c.Purse[p], 2)
	case King:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], 3)
	case Queen:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], 2)
	case Thief:
		for _, nb := range w.Neighbours(p) {
			masquerade.Transfer(&c.Purse[nb], &c.Purse[p], 1)
		}
	case Cheat:
		if c.Purse[p] >= CheatCoins {
			masquerade.Finish(c, []engine.Seat{p})
		}
	case Widow:
		if c.Purse[p] < WidowCoins {
			masquerade.Transfer(&c.BankCoins, &c.Purse[p], WidowCoins-c.Purse[p])
		}
	}
}

// configure returns the book's setup for players; the 1st edition takes
// no other (choice must be "").
func configure(players int, choice string, _ games.Loader) (games.Setup, error) {
	if choice != "" {
		return nil, fmt.Errorf("mascarade: setup %q: the 1st edition takes none", choice)
	}
	return Setup{}, nil
}
