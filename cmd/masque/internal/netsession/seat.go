package netsession

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// SeatConfig describes one seat's private side.
type SeatConfig struct {
	Seat   int
	Roster *ledger.Roster
	// Game binds the roster's game to the table; nil: the game the roster
	// names.
	Game table.Game
	// Games are the games the roster's game is one of; nil: the
	// registry's.
	Games []games.Game
	Sign  ed25519.PrivateKey
	Keys  table.SeatSecrets
	// Bot plays the seat's moves (seeded by Seed), with the bot of the
	// roster's game; otherwise they come from Submit.
	Bot  bool
	Seed uint64
	// BotDelay: with Bot, how long the bot thinks before each move or
	// night actions entry, as a person would (benchmarks); 0: at once.
	BotDelay time.Duration
	// Narrate, if set, receives every line of public narration.
	Narrate func(line string)
	// OnChange, if set, is called after every change (an applied entry,
	// the seat's turn); it must not block.
	OnChange func()
	// SwapBits are the secret bits of this seat's earlier hidden swaps
	// (a restart), by the position of its move's entry.
	SwapBits map[uint64][]bool
	// KeepSwapBits, if set, records the bits of a move's hidden swaps
	// before the move leaves the seat; an error refuses the move (the
	// player would lose what it did).
	KeepSwapBits func(pos uint64, bits []bool) error
	// Shuffles are where this seat's earlier lone shuffles put the cards
	// it knew (a restart: table.Player.RememberShuffle).
	Shuffles []table.LoneShuffle
	// KeepShuffle, if set, records a lone shuffle of this seat (its
	// hidden hand) before the entry leaves the seat; an error refuses the
	// entry (the seat would forget its cards at a restart).
	KeepShuffle func(table.LoneShuffle) error
	// SealSalt, if set, is the seat's kept secret for sealed choices: a
	// bot that seals (games.SealingBot) derives its nonces from it, so
	// that after a restart it still opens what it sealed.
	SealSalt *[32]byte
	// Turn is when the table started waiting for this seat's move at an
	// entry (a restart: the seat's kept TurnFile); asked for that entry
	// again, the seat's countdown goes on from Turn.Since instead of
	// starting over with the full move time.
	Turn TurnMark
	// CheckTargets are the seats this seat checked at night, by the
	// position of its actions entry (a restart:
	// table.Player.RememberCheckTarget): without them a restarted
	// Commissar could not tell whom its answers are about.
	CheckTargets map[uint64]engine.Seat
	// KeepCheck, if set, records whom this seat checks before its actions
	// entry leaves the seat; an error refuses the entry.
	KeepCheck func(pos uint64, target engine.Seat) error
	// BallotSecrets are the secrets of the ballots this seat cast, oldest
	// first (a restart: table.Player.RememberBallotSecret): without its
	// kill ballot's, a seat restarted before a plurality kill's count
	// lookup could not prove it. KeepBallots, if set, records the secrets
	// of the ballots of an actions entry at pos before the entry leaves
	// the seat; an error refuses the entry.
	BallotSecrets [][]byte
	KeepBallots   func(pos uint64, secrets [][]byte) error
	// NightFloor: a person's seat holding no power at night posts its
	// actions by itself after a delay drawn between NightFloor and twice
	// it, unless the player sleeps first (session.NightFloor); 0: at once.
	NightFloor time.Duration
	// KeepTurn, if set, records when the table started waiting for a move
	// of this seat, before the player is asked for it; an error stops the
	// seat (its state directory cannot be written).
	KeepTurn func(TurnMark) error
	// Leaving: the seat's player asked to leave the game before a restart
	// (LeavingFile); KeepLeaving, if set, records the request before it
	// takes effect (leave.go).
	Leaving     bool
	KeepLeaving func() error
	// Gate, if set, is shared by the seats of one process and bounds how
	// many of them apply entries at once: each apply holds one of its
	// tokens (a buffered channel of capacity about GOMAXPROCS). Applying
	// is CPU work that never waits on another seat; without the gate,
	// 18 seats in one process ('masque demo') were each part-way through
	// an entry, its points decoded and its proof batch built, at once
	// (issue 28).
	Gate chan struct{}
	// Shared, if set, is shared by the seats of one process: their
	// tables keep one copy of what they keep of the same entries
	// (table.Shared).
	Shared *table.Shared
	// DeferProofs: a bot's seat checks the proofs of the entries it
	// receives across entries (p2p.DeferredApplier), settled before it
	// acts. It saves CPU where seats share one CPU-bound process (the
	// demo, BenchmarkNetworkLatency); across processes it puts the batch
	// on the next author's path and delays each entry's durability and
	// echo, and was measured slower on the 13-process LAN
	// (docs/performance.md, "Proofs checked across entries"), so seats
	// in processes of their own leave it off.
	DeferProofs bool
}

// TurnMark is when the table started waiting for a seat's move at an
// entry position. The zero mark is none.
type TurnMark struct {
	Pos   uint64
	Since time.Time
}

// Seat is one seat's replica and private side, at a table of any game of
// the registry. It satisfies p2p.Replica: after each applied entry it
// records what its seat saw (table.Player.Observe), narrates (the game's
// seatview.Narrator), and feeds a bot each completed step. Its Author
// method is the seat's p2p.Author: the bot's or the player's move when the
// table waits for one from this seat, else the automatic entry (deal coin,
// shares, key).
type Seat struct {
	cfg    SeatConfig
	game   games.Game
	seat   int
	tab    *table.Table
	player *table.Player
	moves  chan []byte // the player's submitted move bodies

	mu      sync.Mutex
	narr    seatview.Narrator // the game's narration (games.Game.Viewer)
	bot     games.Bot         // created at the deal
	obs     games.Observation // what this seat learnt in the step in progress
	swapBit bool              // the secret bit of this seat's last move
	myTurn  bool              // Author waits for Submit
	// turnSince is when the table started waiting for this seat's move.
	turnSince time.Time
	err       error // a local failure: this seat cannot follow its game
	botMoves  int   // the bot's moves so far

	// night: Author waits for the player's night actions (myTurn is set
	// too); chosen are the targets chosen so far, by power.
	night  bool
	chosen map[uint8]engine.Seat
	// leaving: the player asked to leave the game (leave.go); retiredAt
	// is the position of the seat's card key published during play.
	leaving   bool
	retiredAt uint64
	// pending are the entries applied deferred and not yet settled
	// (ApplyDeferred), in order.
	pending []unsettled
}

// NewSeat returns a seat with a fresh replica of cfg.Roster.
func NewSeat(cfg SeatConfig) (*Seat, error) {
	g, err := lookup(cfg.Games, cfg.Roster.Game)
	if err != nil {
		return nil, err
	}
	if cfg.Game == nil {
		cfg.Game = g.Table()
	}
	tab, err := table.New(cfg.Roster, cfg.Game)
	if err != nil {
		return nil, err
	}
	tab.Share(cfg.Shared)
	player := table.NewPlayer(cfg.Seat, cfg.Sign, cfg.Keys)
	for pos, bits := range cfg.SwapBits {
		player.RememberSwapBits(pos, bits)
	}
	for _, ls := range cfg.Shuffles {
		player.RememberShuffle(ls)
	}
	for pos, target := range cfg.CheckTargets {
		player.RememberCheckTarget(pos, target)
	}
	for _, b := range cfg.BallotSecrets {
		player.RememberBallotSecret(b)
	}
	d := &Seat{cfg: cfg, game: g, seat: cfg.Seat, tab: tab, player: player,
		moves: make(chan []byte, 1), leaving: cfg.Leaving}
	you := engine.Seat(-1)
	if !cfg.Bot {
		// A person reads this narration: it speaks to them.
		you = engine.Seat(cfg.Seat)
	}
	d.narr = g.Viewer().Narrator(you)
	d.narr.Start(tab)
	return d, nil
}

// Game is the roster's game name.
func (d *Seat) Game() string { return d.game.Name() }

// Next implements p2p.Replica.
func (d *Seat) Next() (uint64, uint8, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.Next()
}

// StateHash implements p2p.Replica.
func (d *Seat) StateHash() ledger.Hash {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.StateHash()
}

// Apply implements p2p.Replica: the table checks and applies e, then the
// seat follows what happened. A failure to follow is the seat's own (its
// next author call reports it), not the entry's author's.
func (d *Seat) Apply(e *ledger.Entry) error { return d.apply(e, d.tab.Apply) }

// ApplyVerified implements p2p.VerifiedApplier: as Apply, for an entry
// whose signature p2p has checked (the table does not check it again).
func (d *Seat) ApplyVerified(e *ledger.Entry) error { return d.apply(e, d.tab.ApplyVerified) }

// ApplyBatch implements p2p.BatchApplier: a run of entries that arrived
// together, their signatures checked by p2p, applied by the table with
// their proofs checked in one batch (table.ApplyBatch: the entry refused,
// if any, is the one ApplyVerified would refuse, with the same fault);
// the seat follows each entry applied, in order, as Apply does.
func (d *Seat) ApplyBatch(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	leave := d.enter()
	d.mu.Lock()
	var lines []string
	_, kind, _ := d.tab.Expect()
	wasRetired := d.tab.Retired(d.seat)
	failed, err := d.tab.ApplyBatch(next, max, func(e *ledger.Entry) {
		// The table shows the state after e; kind and wasRetired are
		// from before it.
		if !wasRetired && d.tab.Retired(d.seat) {
			d.retiredAt = e.Pos
		}
		if d.err == nil {
			told, err := d.follow(e, kind, len(d.player.Memory))
			if err != nil {
				d.err = fmt.Errorf("after entry %d: %w", e.Pos, err)
			}
			lines = append(lines, told...)
		}
		_, kind, _ = d.tab.Expect()
		wasRetired = d.tab.Retired(d.seat)
		applied(e, d.tab.StateHash())
	})
	d.mu.Unlock()
	leave()
	if d.cfg.Narrate != nil {
		for _, l := range lines {
			d.cfg.Narrate(l)
		}
	}
	d.changed()
	return failed, err
}

// DefersProofs implements p2p.DeferredApplier: a bot's seat with
// SeatConfig.DeferProofs checks the proofs of the entries it receives
// across entries (ApplyDeferred, Settle); a person's seat shows each
// entry as it is applied, so it checks each at once.
func (d *Seat) DefersProofs() bool { return d.cfg.Bot && d.cfg.DeferProofs }

// unsettled is what the seat needs to follow an entry applied deferred
// once it settles: the kind of entry the table expected before it, and
// whether this seat was retired then.
type unsettled struct {
	kind       table.BodyKind
	wasRetired bool
}

// ApplyDeferred implements p2p.DeferredApplier: the table applies e with
// its proofs deferred (table.ApplyDeferred); the seat follows it (its
// memory, its bot, the narration) only once it is settled, with its
// proofs checked.
func (d *Seat) ApplyDeferred(e *ledger.Entry, settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	return d.settle(func(follow func(*ledger.Entry)) (*ledger.Entry, error) {
		_, kind, _ := d.tab.Expect()
		d.pending = append(d.pending, unsettled{kind: kind, wasRetired: d.tab.Retired(d.seat)})
		return d.tab.ApplyDeferred(e, follow)
	}, settled)
}

// Settle implements p2p.DeferredApplier: the table checks the proofs of
// the entries applied deferred (table.Settle), and the seat follows each
// entry settled, in order.
func (d *Seat) Settle(settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	return d.settle(d.tab.Settle, settled)
}

// settle runs a table call that settles entries (ApplyDeferred or
// Settle), following each settled entry as ApplyBatch does, and passing
// it on to settled with the state hash after it.
func (d *Seat) settle(call func(follow func(*ledger.Entry)) (*ledger.Entry, error), settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	leave := d.enter()
	d.mu.Lock()
	var lines []string
	followed := 0
	failed, err := call(func(e *ledger.Entry) {
		u := d.pending[followed]
		followed++
		if !u.wasRetired && d.tab.Retired(d.seat) {
			d.retiredAt = e.Pos
		}
		if d.err == nil {
			told, err := d.follow(e, u.kind, len(d.player.Memory))
			if err != nil {
				d.err = fmt.Errorf("after entry %d: %w", e.Pos, err)
			}
			lines = append(lines, told...)
		}
		settled(e, d.tab.StateHash())
	})
	if d.tab.Unsettled() == 0 {
		d.pending = d.pending[:0]
	} else if followed > 0 {
		d.pending = d.pending[:copy(d.pending, d.pending[followed:])]
	}
	d.mu.Unlock()
	leave()
	if d.cfg.Narrate != nil {
		for _, l := range lines {
			d.cfg.Narrate(l)
		}
	}
	if followed > 0 {
		d.changed()
	}
	return failed, err
}

func (d *Seat) apply(e *ledger.Entry, tabApply func(*ledger.Entry) error) error {
	leave := d.enter()
	d.mu.Lock()
	_, kind, _ := d.tab.Expect()
	mem := len(d.player.Memory)
	wasRetired := d.tab.Retired(d.seat)
	if err := tabApply(e); err != nil {
		d.mu.Unlock()
		leave()
		return err
	}
	if !wasRetired && d.tab.Retired(d.seat) {
		d.retiredAt = e.Pos
	}
	var lines []string
	if d.err == nil {
		var err error
		if lines, err = d.follow(e, kind, mem); err != nil {
			d.err = fmt.Errorf("after entry %d: %w", e.Pos, err)
		}
	}
	d.mu.Unlock()
	leave()
	if d.cfg.Narrate != nil {
		for _, l := range lines {
			d.cfg.Narrate(l)
		}
	}
	d.changed()
	return nil
}

// enter waits for a token of the seats' gate, if any, and returns the
// function that gives it back.
func (d *Seat) enter() (leave func()) {
	if d.cfg.Gate == nil {
		return func() {}
	}
	d.cfg.Gate <- struct{}{}
	return func() { <-d.cfg.Gate }
}

func (d *Seat) changed() {
	if d.cfg.OnChange != nil {
		d.cfg.OnChange()
	}
}

// Failure is the seat's local failure, if any: it could not follow the game.
func (d *Seat) Failure() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// follow updates the seat's memory, its bot's knowledge and the narration
// after entry e (of the given kind) was applied; mem is the length of the
// memory before it. It returns the narration's new lines. d.mu is held.
func (d *Seat) follow(e *ledger.Entry, kind table.BodyKind, mem int) ([]string, error) {
	if err := d.player.Observe(d.tab); err != nil {
		return nil, err
	}
	told, err := d.narr.Follow(d.tab, e)
	if err != nil {
		return nil, err
	}
	if d.tab.Rules() == nil {
		return told.Lines, nil
	}
	if d.bot == nil && d.cfg.Bot { // just dealt
		if err := d.newBot(d.tab.Rules()); err != nil {
			return nil, err
		}
		return told.Lines, nil
	}
	switch kind {
	case table.BodyMove:
		d.obs = games.Observation{}
		if int(e.Seat) == d.seat {
			d.obs.Swap = d.swapBit
		}
	case table.BodyShares:
		// A completed peek (this seat's) or show (the 2nd edition's
		// Princess, to every seat but the owner): what this seat saw.
		if c := d.tab.Completed(); c != nil && (c.Kind == engine.EffectPeek || c.Kind == engine.EffectShowOthers) {
			for _, sg := range d.player.Memory[mem:] {
				if !sg.Public {
					d.obs.Seen = append(d.obs.Seen, engine.Fact{Slot: sg.Slot, Card: sg.Card})
				}
			}
		}
	}
	if told.Step != nil && d.bot != nil {
		o := d.obs
		o.Effects, o.Facts = told.Step.Effects, told.Step.Facts
		d.bot.Observe(o)
		d.obs = games.Observation{}
	}
	return told.Lines, nil
}

// Author is the seat's p2p.Author.
func (d *Seat) Author(ctx context.Context, pos uint64) ([]byte, error) {
	if d.cfg.Bot && d.cfg.BotDelay > 0 {
		d.mu.Lock()
		_, kind, ok := d.tab.Expect()
		d.mu.Unlock()
		if ok && (kind == table.BodyMove || kind == table.BodyActions) {
			select {
			case <-time.After(d.cfg.BotDelay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	d.mu.Lock()
	if d.err != nil {
		defer d.mu.Unlock()
		return nil, d.err
	}
	if d.tab.Pos() != pos {
		defer d.mu.Unlock()
		return nil, fmt.Errorf("asked for entry %d, the table is at %d", pos, d.tab.Pos())
	}
	_, kind, _ := d.tab.Expect()
	if kind == table.BodyActions && d.cfg.Bot {
		defer d.mu.Unlock()
		return d.botActions()
	}
	if _, kind, ok := d.tab.Expect(); !ok || (kind != table.BodyMove && kind != table.BodyActions) {
		defer d.mu.Unlock()
		b, auto, err := d.player.AutoBody(d.tab)
		if err != nil {
			return nil, err
		}
		if !auto {
			return nil, fmt.Errorf("entry %d is not this seat's to write", pos)
		}
		if ls, ok, err := d.player.PendingShuffle(d.tab); err != nil {
			return nil, err
		} else if ok && d.cfg.KeepShuffle != nil {
			if err := d.cfg.KeepShuffle(ls); err != nil {
				return nil, fmt.Errorf("recording your shuffle of your hidden hand: %w", err)
			}
		}
		return b.MarshalBinary()
	}
	if d.cfg.Bot {
		defer d.mu.Unlock()
		return d.botMove()
	}
	if d.leaving {
		if body, ok, err := d.leavingBody(kind == table.BodyActions); ok || err != nil {
			defer d.mu.Unlock()
			return body, err
		}
	}
	// A person's move: wait for Submit.
	select {
	case <-d.moves: // a stale submission
	default:
	}
	since := time.Now()
	if m := d.cfg.Turn; m.Pos == pos && !m.Since.IsZero() && m.Since.Before(since) {
		since = m.Since // asked again (a restart): the clock goes on
	} else {
		m := TurnMark{Pos: pos, Since: since}
		if d.cfg.KeepTurn != nil {
			if err := d.cfg.KeepTurn(m); err != nil {
				defer d.mu.Unlock()
				return nil, fmt.Errorf("recording when your turn began: %w", err)
			}
		}
		d.cfg.Turn = m
	}
	d.myTurn = true
	d.turnSince = since
	var floor <-chan time.Time
	if kind == table.BodyActions {
		d.night, d.chosen = true, map[uint8]engine.Seat{}
		if len(d.player.Decisions(d.tab)) == 0 {
			wait := time.Until(since.Add(floorDelay(d.cfg.NightFloor, pos, d.cfg.Keys)))
			floor = time.After(max(wait, 0))
		}
	}
	d.mu.Unlock()
	d.changed()
	select {
	case body := <-d.moves:
		return body, nil
	case <-floor:
		d.mu.Lock()
		defer d.d()
		d.myTurn, d.night = false, false
		return d.actionsBody(map[uint8]engine.Seat{})
	case <-ctx.Done():
		d.mu.Lock()
		d.myTurn, d.night = false, false
		d.mu.Unlock()
		return nil, ctx.Err()
	}
}

// Submit plays the seat's move m with the secret bits of the hidden swaps
// it causes (one per swap effect). It fails, changing nothing, when it is
// not this seat's move or m is illegal.
func (d *Seat) Submit(m engine.Move, swaps []bool) error {
	d.mu.Lock()
	defer d.d()
	if !d.myTurn || d.night {
		return errors.New("it is not your move")
	}
	s := d.tab.Rules()
	if s == nil {
		return errors.New("the game has not started")
	}
	m.Seat = engine.Seat(d.seat)
	_, effects, err := s.Apply(m)
	if err != nil {
		return err
	}
	n := 0
	for _, ef := range effects {
		if ef.Kind == engine.EffectSwap {
			n++
		}
	}
	if len(swaps) != n {
		return fmt.Errorf("the move causes %d hidden swaps; %d swap bits given", n, len(swaps))
	}
	body, err := d.player.MoveBody(d.tab, m, swaps)
	if err != nil {
		return err
	}
	if err := d.keepSwapBits(swaps); err != nil {
		return err
	}
	enc, err := body.MarshalBinary()
	if err != nil {
		return err
	}
	d.myTurn = false
	d.swapBit = n > 0 && swaps[0]
	d.moves <- enc
	return nil
}

// keepSwapBits records the bits of the move about to leave the seat at the
// table's position; d.mu is held.
func (d *Seat) keepSwapBits(bits []bool) error {
	if len(bits) == 0 || d.cfg.KeepSwapBits == nil {
		return nil
	}
	if err := d.cfg.KeepSwapBits(d.tab.Pos(), bits); err != nil {
		return fmt.Errorf("recording your secret swap: %w", err)
	}
	return nil
}

// d unlocks d.mu and reports a change (Submit's deferred exit).
func (d *Seat) d() {
	d.mu.Unlock()
	d.changed()
}

// View is what the seat may see now.
type View struct {
	Seat   int
	Names  []string
	Rules  engine.State
	Memory []table.Sighting
	// SwapBits are the secret bits of the seat's own hidden swaps.
	SwapBits map[uint64][]bool
	Log      []string
	// Record is the public record the game's narrator kept
	// (seatview.Narrator.Record), for the seat's view.
	Record any
	// Known is what the seat knows now, by slot (table.Player.Known).
	Known map[engine.Slot]engine.Card
	// Opened is every card, once every seat published its key at the end
	// (table.Table.Opened).
	Opened map[engine.Slot]engine.Card
	MyTurn bool
	// Night: the table waits for this seat's night actions (MyTurn too);
	// Decisions are the choices still to make.
	Night     bool
	Decisions []engine.Effect
	// TableNight: the table waits for some seat's night actions.
	TableNight bool
	// Private is the seat's private knowledge beyond its cards
	// (games.Knower), nil for games without it.
	Private any
	// TurnSince is when the table started waiting for this seat's move.
	TurnSince time.Time
	Over      bool
	Entries   int
	// CanLeave: the seat may ask to leave the game now (leave.go);
	// Leaving: it asked, and leaves at its next move; Retired: it is out
	// and published its card key, in the entry at RetiredAt (its program
	// may stop once the other seats hold that entry).
	CanLeave, Leaving, Retired bool
	RetiredAt                  uint64
}

// View returns a copy of the seat's current view.
func (d *Seat) View() View {
	d.mu.Lock()
	defer d.mu.Unlock()
	v := View{Seat: d.seat, Rules: d.tab.Rules(), MyTurn: d.myTurn, TurnSince: d.turnSince, Entries: int(d.tab.Pos()),
		Memory: append([]table.Sighting(nil), d.player.Memory...), SwapBits: d.player.SwapBits(),
		Log: slices.Clone(d.narr.Lines()), Record: d.narr.Record(), Known: d.player.Known(d.tab), Opened: d.tab.Opened()}
	if kn, ok := d.game.Table().(games.Knower); ok && v.Rules != nil {
		v.Private = kn.Knowledge(v.Rules, d.player, d.tab)
	}
	if d.night {
		v.Night = true
		for _, dc := range d.player.Decisions(d.tab) {
			if _, done := d.chosen[dc.Power]; !done {
				v.Decisions = append(v.Decisions, dc)
			}
		}
	}
	for _, s := range d.tab.Roster().Seats {
		v.Names = append(v.Names, s.Name)
	}
	_, _, more := d.tab.Next()
	v.Over = !more
	_, kind, ok := d.tab.Expect()
	v.TableNight = ok && kind == table.BodyActions
	v.Retired, v.RetiredAt = d.tab.Retired(d.seat), d.retiredAt
	v.Leaving = d.leaving && !v.Retired
	v.CanLeave = more && d.canLeave()
	return v
}

// Due is the position the table is at and the seat and kind of the entry
// it needs there (ok false: none).
func (d *Seat) Due() (pos uint64, seat engine.Seat, kind table.BodyKind, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	seat, kind, ok = d.tab.Expect()
	return d.tab.Pos(), seat, kind, ok
}

// Table is the seat's replica (read it only when the room has stopped).
func (d *Seat) Table() *table.Table { return d.tab }
