package netsession

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

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

// botMove returns the bot's move's body (games.BotTurn); d.mu is held.
func (d *Seat) botMove() ([]byte, error) {
	if s := d.tab.Rules(); d.bot == nil && s != nil {
		if err := d.newBot(s); err != nil {
			return nil, err
		}
	}
	if d.botMoves++; d.botMoves > games.MaxBotMoves {
		return nil, fmt.Errorf("the bots did not finish the game in %d moves", games.MaxBotMoves)
	}
	m, swaps, err := games.BotTurn(d.game, d.bot, d.player, d.tab)
	if err != nil {
		return nil, err
	}
	body, err := d.player.MoveBody(d.tab, m, swaps)
	if err != nil {
		return nil, fmt.Errorf("move %s: %w", d.game.FormatMove(d.tab.Rules(), m), err)
	}
	if err := d.keepSwapBits(swaps); err != nil {
		return nil, err
	}
	d.swapBit = len(swaps) > 0 && swaps[0]
	return body.MarshalBinary()
}
