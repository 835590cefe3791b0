package netsession

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/cmd/masque/internal/narrate"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
)

// MaxGenericBotMoves stops the bots of a game outside the Mascarade
// family that would play forever (a 5-player Grimm game takes a few
// hundred moves).
const MaxGenericBotMoves = 20000

// A game outside the Mascarade family (narrate.Narrates is false) is
// followed here: the narration tells every move, reveal and joint coin in
// the game's own words (narrate.TellEntry: games.Teller, or its script
// lines), and every published key; the bot is created with the first rules state and reads what its
// seat knows from the table layer when it can (games.KnowingBot).

// followGeneric records what the seat saw and narrates entry e; prior is
// the rules state before it. d.mu is held.
func (d *Seat) followGeneric(e *ledger.Entry, prior engine.State) ([]string, error) {
	if err := d.player.Observe(d.tab); err != nil {
		return nil, err
	}
	you := engine.Seat(-1)
	if !d.cfg.Bot {
		you = engine.Seat(d.seat) // a person reads this narration
	}
	lines, err := narrate.TellEntry(d.game, d.tab, e, prior, you)
	if err != nil {
		return nil, err
	}
	d.glines = append(d.glines, lines...)
	if d.bot == nil && d.cfg.Bot && d.tab.Rules() != nil {
		if err := d.newBot(d.tab.Rules()); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// newBot creates the seat's bot on rules state s; a bot that seals its
// choices (games.SealingBot) seals them with the seat's kept salt. d.mu is
// held.
func (d *Seat) newBot(s engine.State) error {
	seed := d.cfg.Seed
	if !d.cfg.Bot {
		// A person's seat uses its bot only to play for a player who is
		// leaving (leave.go): its choices must not be foreseeable by the
		// others from a public seed.
		seed = secretSeed(d.cfg.Keys)
	}
	bot, err := d.game.NewBot(s, engine.Seat(d.seat), seed)
	if err != nil {
		return err
	}
	if sb, ok := bot.(games.SealingBot); ok && d.cfg.SealSalt != nil {
		sb.SealWith(*d.cfg.SealSalt)
	}
	d.bot = bot
	return nil
}

// genericBotMove returns the bot's move's body in a game outside the
// Mascarade family; d.mu is held.
func (d *Seat) genericBotMove() ([]byte, error) {
	s := d.tab.Rules()
	if s == nil {
		return nil, errors.New("a move is expected before the game started")
	}
	if d.bot == nil {
		if err := d.newBot(s); err != nil {
			return nil, err
		}
	}
	if d.botMoves++; d.botMoves > MaxGenericBotMoves {
		return nil, fmt.Errorf("the bots did not finish the game in %d moves", MaxGenericBotMoves)
	}
	var (
		m    engine.Move
		bits []bool
		ok   bool
	)
	if nb, is := d.bot.(games.NightBot); is {
		nb.See(d.player, d.tab)
	}
	if kb, is := d.bot.(games.KnowingBot); is {
		m, bits, ok = kb.ChooseKnowing(s, d.player.Known(d.tab))
	} else {
		m, bits, ok = d.bot.Choose(s)
	}
	if !ok {
		return nil, errors.New("the bot has no legal move")
	}
	m.Seat = engine.Seat(d.seat)
	_, effects, err := s.Apply(m)
	if err != nil {
		return nil, fmt.Errorf("the bot chose %s: %w", d.game.FormatMove(s, m), err)
	}
	var swaps []bool
	for _, ef := range effects {
		if ef.Kind == engine.EffectSwap {
			if len(bits) == 0 {
				return nil, fmt.Errorf("the bot chose %s without its swap bits", d.game.FormatMove(s, m))
			}
			swaps = append(swaps, bits[0])
			bits = bits[1:]
		}
	}
	body, err := d.player.MoveBody(d.tab, m, swaps)
	if err != nil {
		return nil, fmt.Errorf("move %s: %w", d.game.FormatMove(s, m), err)
	}
	if err := d.keepSwapBits(swaps); err != nil {
		return nil, err
	}
	return body.MarshalBinary()
}
