package phoneseat

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/remoteseat"
)

// A phone's player leaves a game with leaving (games.Leaver: Mafia) for
// good as a native seat's does (netsession's leave.go): the request is
// stored first ("leaving"), so a reloaded page still leaves and never
// plays again; the seat then posts its leave move at its next move (at
// once when one is due), and its night actions until then are its
// bot's choices, seeded by the seat's secrets; once the move is applied
// the seat publishes its card key (an automatic entry) and the table
// computes its part from then on. The page then follows the table
// read-only to its end.

// leaveKey is the stored mark of a seat whose player asked to leave.
const leaveKey = "leaving"

// leaver returns the game's leaving, if it has one.
func (p *Phone) leaver() (games.Leaver, bool) {
	if p.game == nil {
		return nil, false
	}
	lv, ok := p.game.Table().(games.Leaver)
	return lv, ok
}

// CanLeave says whether the player may ask to leave the game now.
func (p *Phone) CanLeave() bool {
	lv, ok := p.leaver()
	if !ok || p.leaving || p.rs == nil || p.over() || p.tab.Rules() == nil {
		return false
	}
	_, ok = lv.LeaveMove(p.tab.Rules(), engine.Seat(p.seat))
	return ok
}

// Leaving says whether the player asked to leave the game.
func (p *Phone) Leaving() bool { return p.leaving }

// Leave asks to leave the game for good. It fails, changing nothing,
// when the game has no leaving, the seat is out already or the game is
// over. Asking twice is no error. The mark is stored before the leave
// move leaves (the Effects' Puts come first).
func (p *Phone) Leave(now time.Time) (Effects, error) {
	if p.leaving {
		return Effects{}, nil
	}
	if p.rs == nil || p.tab == nil || p.tab.Rules() == nil {
		return Effects{}, errors.New("the game has not started")
	}
	lv, ok := p.leaver()
	if !ok {
		return Effects{}, fmt.Errorf("%s has no leaving mid-game: close the page instead (the table waits for you to come back)", p.game.Title())
	}
	if _, ok := lv.LeaveMove(p.tab.Rules(), engine.Seat(p.seat)); !ok || p.over() {
		return Effects{}, errors.New("you are out of the game already, or it is over")
	}
	p.leaving = true
	p.ctl.SetLeaving()
	p.status = ""
	e := Effects{Puts: []Put{{Key: leaveKey, Value: []byte("leave\n")}}}
	if p.myTurn && p.author {
		// A move or night actions are due: posted now.
		p.myTurn, p.night = false, false
		e.add(p.carry(now, p.leavingOut(now)))
	}
	return e, nil
}

// leavingEntry is the entry a leaving seat posts when the table waits
// for its move (its leave move) or its night actions (its bot's
// choices); ok is false when it has none to post.
func (p *Phone) leavingEntry(kind table.BodyKind) (body []byte, ok bool, err error) {
	if kind == table.BodyActions {
		body, err = p.botActions()
		return body, true, err
	}
	lv, ok := p.leaver()
	if !ok || p.tab.Rules() == nil {
		return nil, false, nil
	}
	m, ok := lv.LeaveMove(p.tab.Rules(), engine.Seat(p.seat))
	if !ok {
		return nil, false, nil
	}
	b, err := p.player.MoveBody(p.tab, m, nil)
	if err != nil {
		return nil, true, fmt.Errorf("leaving: %w", err)
	}
	body, err = b.MarshalBinary()
	return body, true, err
}

// leavingOut posts the leaving seat's entry at the position it authors.
func (p *Phone) leavingOut(now time.Time) remoteseat.Out {
	_, kind, _ := p.tab.Expect()
	body, _, err := p.leavingEntry(kind)
	p.author = false
	return p.rs.Authored(now, p.authorAt, body, err)
}

// botActions is the night actions' body the seat's bot chooses.
func (p *Phone) botActions() ([]byte, error) {
	s := p.tab.Rules()
	choices := map[uint8]engine.Seat{}
	if ds := p.player.Decisions(p.tab); len(ds) > 0 {
		if p.bot == nil {
			bot, err := p.game.NewBot(s, engine.Seat(p.seat), p.botSeed())
			if err != nil {
				return nil, err
			}
			if sb, ok := bot.(games.SealingBot); ok {
				var salt [32]byte
				copy(salt[:], p.me.Salt)
				sb.SealWith(salt)
			}
			p.bot = bot
		}
		nb, ok := p.bot.(games.NightBot)
		if !ok {
			return nil, errors.New("the bot makes no night choices")
		}
		nb.See(p.player, p.tab)
		for _, dc := range ds {
			choices[dc.Power] = nb.Decide(s, dc)
		}
	}
	pos := p.tab.Pos()
	body, err := p.player.ActionsBody(p.tab, choices)
	if err != nil {
		return nil, fmt.Errorf("night actions: %w", err)
	}
	if _, ok := p.player.CheckTargets()[pos]; ok {
		// Kept before the entry leaves, as a player's choice is.
		raw, _ := json.Marshal(p.player.CheckTargets())
		p.pendingPuts = append(p.pendingPuts, Put{Key: "checks", Value: raw})
	}
	raw, _ := json.Marshal(p.player.BallotSecrets())
	p.pendingPuts = append(p.pendingPuts, Put{Key: "ballots", Value: raw})
	return body.MarshalBinary()
}

// botSeed is the leaving seat's bot seed, drawn from its secrets: stable
// across reloads and unknown to the other seats (netsession's
// secretSeed).
func (p *Phone) botSeed() uint64 {
	h := sha256.New()
	h.Write([]byte("masque leaving bot seed"))
	if enc, err := p.secrets.MarshalBinary(); err == nil {
		h.Write(enc)
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}
