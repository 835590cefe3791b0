package mascarade2

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
)

// ed names the 2nd edition to the family's rules ([masquerade.Of]).
type ed struct{}

// Edition returns the 2nd edition.
func (ed) Edition() *masquerade.Edition[Options] { return &second }

// second is Mascarade, 2nd edition: data, and the powers the family's
// rules do not apply themselves. It is never written to after
// initialisation.
var second = masquerade.Edition[Options]{
	Spec: masquerade.Spec{
		Game:       GameName,
		Title:      "Mascarade (2nd edition)",
		Cards:      masks,
		BoxCoins:   BoxCoins,
		MinPlayers: MinPlayers,
		MaxPlayers: MaxPlayers,

		Chairs: true,
		Shared: Peasant,
		Choices: map[engine.Card]masquerade.Choice{
			Swindler:  masquerade.ChoiceRichest,
			Sorceress: masquerade.ChoicePurses,
			Guru:      masquerade.ChoiceQuestion,
			Fool:      masquerade.ChoiceFool,
			Spy:       masquerade.ChoiceSpy,
			Princess:  masquerade.ChoiceSeat,
			Puppeteer: masquerade.ChoiceSeats,
		},
		RichestTake:    SwindlerTake,
		RuleNotRichest: RuleNotRichest,
		RuleRevealed:   RuleRevealedClaim,
		Text: masquerade.Texts{
			TurnMoves: "swaps, looks or announces",
			Revealed:  "your card was revealed during the previous turn: you may not announce this turn",
			NotYours:  "slot %d is not your card",
			BadSwap:   "cannot swap with slot %d (your own card, or no such slot)",
			BadClaim:  "slot %d is not your card",
			BadFool:   "the Fool swaps the cards of two other players (not the middle)",
			SpyWhat:   "chooses another player's card (not the middle)",
			SpyArg:    "NAME",
			Centre:    "middle",
		},
		Power: power,
		Use:   use,

		SetupHelp:   games.SetupHelp{Usage: scenarioUsage, Choices: ScenarioNames()},
		Configure:   configure,
		ParseScript: masquerade.ScriptParser(ParseScript),
	},
	Normalize: Options.Normalize,
	Validate:  Options.Validate,
	Parts: func(o Options) ([]string, []engine.Card, int, int) {
		return o.Players, o.Set, o.Coins, o.Center()
	},
	Make: func(players []string, set []engine.Card, coins int) Options {
		return Options{Players: players, Set: set, Coins: coins}
	},
	Append:    Options.appendBinary,
	Unmarshal: UnmarshalOptions,
}

// power applies owner o's power as far as it goes without a choice: the
// Princess and the Fool take their coins first, then choose (choose).
func power(w masquerade.Work, o Contender, choose bool) {
	c, p := w.Core(), o.Seat
	switch c.Claimed {
	case Princess:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], PrincessCoins)
	case Fool:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], FoolCoins)
	}
	if choose {
		return
	}
	switch c.Claimed {
	case Empress:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], EmpressCoins)
	case King:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], KingCoins)
	case Widow:
		if c.Purse[p] < WidowCoins {
			masquerade.Transfer(&c.BankCoins, &c.Purse[p], WidowCoins-c.Purse[p])
		}
	case Judge:
		c.Purse[p] += c.CourtCoins
		c.CourtCoins = 0
	case Thief:
		masquerade.Transfer(&c.Purse[w.SeatAfter(p, -1)], &c.Purse[p], 1)
		masquerade.Transfer(&c.Purse[w.SeatAfter(p, 1)], &c.Purse[p], 1)
	case Beggar:
		// Clockwise from the left, each player richer than the Beggar at
		// that moment gives one coin.
		for k := 1; k < w.Players(); k++ {
			q := w.SeatAfter(p, k)
			if c.Purse[q] > c.Purse[p] {
				masquerade.Transfer(&c.Purse[q], &c.Purse[p], 1)
			}
		}
	case Patron:
		masquerade.Transfer(&c.BankCoins, &c.Purse[p], PatronCoins)
		masquerade.Transfer(&c.BankCoins, &c.Purse[w.SeatAfter(p, 1)], PatronGift)
		masquerade.Transfer(&c.BankCoins, &c.Purse[w.SeatAfter(p, -1)], PatronGift)
	case Cheater:
		if c.Purse[p] >= CheaterCoins {
			masquerade.Finish(c, []engine.Seat{p})
		}
	case Swindler:
		masquerade.Transfer(&c.Purse[c.Richest(p)[0]], &c.Purse[p], SwindlerTake)
	}
}

// use applies the choice of the Princess (Args [seat]: she shows that
// player's card to everyone else) or of the Puppeteer (Args [seat a,
// seat b]: it takes a coin from each, then they change chairs).
func use(w masquerade.Work, m engine.Move) ([]engine.Effect, error) {
	c := w.Core()
	u := c.User
	if c.Claimed == Princess {
		if err := masquerade.ArgCount(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !c.OtherSeat(u.Seat, t) {
			return nil, masquerade.RuleErr(m.Seat, masquerade.RuleBadTarget, "the Princess chooses another player")
		}
		return []engine.Effect{{Kind: engine.EffectShowOthers, By: u.Seat, Except: t, Slots: []engine.Slot{w.SlotOf(t)}}}, nil
	}
	if err := masquerade.ArgCount(m, 2); err != nil {
		return nil, err
	}
	a, b := engine.Seat(m.Args[0]), engine.Seat(m.Args[1])
	if a == b || !c.OtherSeat(u.Seat, a) || !c.OtherSeat(u.Seat, b) {
		return nil, masquerade.RuleErr(m.Seat, masquerade.RuleBadTarget, "the Puppeteer chooses two other players")
	}
	masquerade.Transfer(&c.Purse[a], &c.Purse[u.Seat], PuppeteerTake)
	masquerade.Transfer(&c.Purse[b], &c.Purse[u.Seat], PuppeteerTake)
	if !masquerade.CheckEnd(c) { // the game may end before they change seats
		w.ExchangeChairs(a, b)
	}
	return nil, nil
}
