// Package localsession is a [session.Session] where one local seat plays
// against bots in this process, on an [local.Table], at any game of the
// registry (engine/games/registry, [Options.Game]): every seat holds its
// own keys and replica, and every entry goes through signing, encoding and
// validation as over the network. The bots move in a goroutine, each after
// a short delay, so a screen shows the game progress.
//
// Every game is followed by its own narrator (games.Game.Viewer: the log,
// the public record the seat's view reads, the steps the bots observe);
// a bot's turn is games.BotTurn (a bot may choose from what its seat
// knows, games.KnowingBot), and the local player's statements (hints,
// unmaskings, wins) are proven by its own table.Player when the move is
// published.
package localsession

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Options are a local table's settings.
type Options struct {
	// Game is the game's name in Games (the registry's default when
	// empty).
	Game string
	// Games are the games the session may play; nil: the registry's.
	Games []games.Game
	// Setup is the game's setup (a scenario, say); nil: the
	// game's default for the player count. Its options are checked
	// against the game's constraints.
	Setup       games.Setup
	Seat        int           // the local seat (0 plays first)
	Delay       time.Duration // each bot's thinking time; 0 means none
	PublishKeys bool          // every seat publishes its card key at the end
	// NightFloor: the local seat, holding no power at night, posts its
	// night actions by itself after a delay drawn between NightFloor and
	// twice it (session.NightFloor), unless the player sleeps first; 0:
	// at once.
	NightFloor time.Duration
	Logger     *slog.Logger // nil: discard
}

type botBit struct {
	seat engine.Seat
	bit  bool
}

// Session is one local seat at an in-process table of bots.
type Session struct {
	opts    Options
	log     *slog.Logger
	updates chan struct{}
	wake    chan struct{}
	cancel  context.CancelFunc
	done    chan struct{}

	mu     sync.Mutex
	lt     *local.Table
	game   games.Game
	bots   []games.Bot         // nil at the local seat
	narr   seatview.Narrator   // the game's narration, speaking to the local seat
	obs    []games.Observation // the step in progress, by seat
	bit    *botBit             // the secret bit of the bot move being published
	failed string              // why the table stopped, if it did
	moves  int                 // the bots' moves so far

	night *night // the local seat's night actions in progress
}

// night is the local seat's night actions in progress: the table waits
// for its actions entry at pos.
type night struct {
	pos    uint64
	due    time.Time // when a seat without a power posts by itself
	chosen map[uint8]engine.Seat
	slept  bool
}

var _ session.Session = (*Session)(nil)

// New seats names at a fresh local table (seat opts.Seat is the local
// player, the others are bots deterministic given botSeed) and starts the
// bots. Close releases it.
func New(names []string, botSeed uint64, opts Options) (*Session, error) {
	if opts.Seat < 0 || opts.Seat >= len(names) {
		return nil, fmt.Errorf("localsession: seat %d of %d", opts.Seat, len(names))
	}
	if opts.Game == "" {
		opts.Game = registry.Default
	}
	if opts.Games == nil {
		opts.Games = registry.All()
	}
	g, err := games.Lookup(opts.Games, opts.Game)
	if err != nil {
		return nil, fmt.Errorf("localsession: %w", err)
	}
	if opts.Setup == nil {
		if opts.Setup, err = g.Configure(len(names), "", nil); err != nil {
			return nil, fmt.Errorf("localsession: %w", err)
		}
	}
	enc, err := opts.Setup.Options(names)
	if err != nil {
		return nil, err
	}
	lt, err := local.New(g.Table(), names, table.Options{Game: enc, PublishKeys: opts.PublishKeys})
	if err != nil {
		return nil, err
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{opts: opts, log: lg, updates: make(chan struct{}, 1), wake: make(chan struct{}, 1),
		cancel: cancel, done: make(chan struct{}), lt: lt, game: g, obs: make([]games.Observation, len(names))}
	s.narr = g.Viewer().Narrator(engine.Seat(opts.Seat))
	raw := lt.View().Rules()
	if raw == nil {
		cancel()
		return nil, errors.New("localsession: the table did not deal")
	}
	s.bots = make([]games.Bot, len(names))
	for i := range names {
		if i != opts.Seat {
			if s.bots[i], err = g.NewBot(raw, engine.Seat(i), botSeed); err != nil {
				cancel()
				return nil, fmt.Errorf("localsession: %w", err)
			}
		}
	}
	if opts.NightFloor > 0 {
		lt.OwnNight = func(seat engine.Seat) bool { return int(seat) == opts.Seat }
	}
	if err := s.catchUp(); err != nil {
		cancel()
		return nil, fmt.Errorf("localsession: %w", err)
	}
	lt.OnEntry = s.onEntry
	lg.Info("local table", "players", names, "seat", opts.Seat, "seed", botSeed)
	go s.run(ctx)
	return s, nil
}

// catchUp tells the entries the table wrote before the session followed
// it (the opening: shuffles, looks, the first round's coin and reveals),
// replaying them on a fresh public replica.
func (s *Session) catchUp() error {
	tr := s.lt.Transcript()
	t, err := table.New(tr.Roster, s.game.Table())
	if err != nil {
		return err
	}
	s.narr.Start(t)
	for _, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			return fmt.Errorf("entry %d: %w", e.Pos, err)
		}
		if _, err := s.narr.Follow(t, e); err != nil {
			return fmt.Errorf("entry %d: %w", e.Pos, err)
		}
	}
	return nil
}

// onEntry runs (under s.mu, inside lt.Move) after each entry is applied
// everywhere: it narrates and feeds the bots what their seats learnt.
func (s *Session) onEntry(e *ledger.Entry) {
	told, err := s.narr.Follow(s.lt.View(), e)
	if err != nil {
		s.log.Error("narrate", "pos", e.Pos, "err", err)
		return
	}
	for _, l := range told.Lines {
		s.log.Debug("log", "line", l)
	}
	if len(e.Body) == 0 || s.lt.View().Rules() == nil {
		return
	}
	seat := engine.Seat(e.Seat)
	switch table.BodyKind(e.Body[0]) {
	case table.BodyMove:
		for i := range s.obs {
			s.obs[i] = games.Observation{}
		}
		if s.bit != nil && s.bit.seat == seat && int(seat) < len(s.obs) {
			s.obs[seat].Swap = s.bit.bit
		}
		s.bit = nil
	case table.BodyShares:
		// A completed peek: its viewer's memory has the card; a completed
		// show (the Princess): every seat's but the owner's has it.
		c := s.lt.View().Completed()
		switch {
		case c == nil:
		case c.Kind == engine.EffectPeek:
			s.saw(c.By, 1)
		case c.Kind == engine.EffectShowOthers:
			for i := range s.lt.Seats {
				if engine.Seat(i) != c.Except {
					s.saw(engine.Seat(i), len(c.Slots))
				}
			}
		}
	}
	if told.Step == nil {
		return
	}
	for i, b := range s.bots {
		if b == nil {
			continue
		}
		o := s.obs[i]
		o.Effects, o.Facts = told.Step.Effects, told.Step.Facts
		b.Observe(o)
	}
}

// saw adds the last n sightings of seat's memory to what it saw privately
// in the step in progress.
func (s *Session) saw(seat engine.Seat, n int) {
	mem := s.lt.Seats[seat].Player.Memory
	for _, sg := range mem[max(0, len(mem)-n):] {
		s.obs[seat].Seen = append(s.obs[seat].Seen, engine.Fact{Slot: sg.Slot, Card: sg.Card})
	}
}

// run moves the bots until the game is over or the session is closed.
func (s *Session) run(ctx context.Context) {
	defer close(s.done)
	for {
		s.mu.Lock()
		seat, kind, ok := s.lt.View().Expect()
		stopped := s.failed != ""
		s.mu.Unlock()
		if !ok || stopped {
			s.notify()
			return
		}
		if kind == table.BodyActions {
			var wait time.Duration
			var err error
			s.mu.Lock()
			if int(seat) == s.opts.Seat {
				wait, err = s.localNight()
			} else {
				err = s.botActions(seat)
			}
			if err != nil {
				s.failed = err.Error()
				s.log.Error("night actions", "seat", seat, "err", err)
			}
			s.mu.Unlock()
			s.notify()
			if wait != 0 {
				var timer <-chan time.Time
				if wait > 0 {
					timer = time.After(wait)
				}
				select {
				case <-ctx.Done():
					return
				case <-s.wake:
				case <-timer:
				}
			}
			continue
		}
		if kind != table.BodyMove || int(seat) == s.opts.Seat {
			// The local player's move (automatic entries never wait).
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
			}
			continue
		}
		if s.opts.Delay > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(s.opts.Delay):
			}
		}
		s.mu.Lock()
		err := s.botMove(seat)
		if err != nil {
			s.failed = err.Error()
			s.log.Error("bot", "seat", seat, "err", err)
		}
		s.mu.Unlock()
		s.notify()
	}
}

// localNight posts the local seat's night actions once it is ready: every
// decision taken, or, for a seat without a power, once the player slept
// or the night's floor delay passed. Otherwise it returns how long to
// wait before trying again (-1: until woken). s.mu is held.
func (s *Session) localNight() (time.Duration, error) {
	me := s.lt.Seats[s.opts.Seat]
	pos := s.lt.View().Pos()
	n := s.nightNow()
	if n == nil {
		return 0, nil
	}
	ds := me.Player.Decisions(me.Replica)
	switch {
	case len(ds) > 0 && len(n.chosen) < len(ds):
		return -1, nil
	case len(ds) == 0 && !n.slept:
		if left := time.Until(n.due); left > 0 {
			return left, nil
		}
	}
	s.night = nil
	s.log.Info("local night actions", "pos", pos)
	if err := s.lt.Actions(engine.Seat(s.opts.Seat), n.chosen); err != nil {
		return 0, fmt.Errorf("your night actions: %w", err)
	}
	return 0, nil
}

// nightNow returns the local seat's night in progress, begun now if the
// table just started waiting for its actions, or nil when it does not
// wait for them. s.mu is held.
func (s *Session) nightNow() *night {
	seat, kind, ok := s.lt.View().Expect()
	if !ok || kind != table.BodyActions || int(seat) != s.opts.Seat {
		return nil
	}
	if pos := s.lt.View().Pos(); s.night == nil || s.night.pos != pos {
		s.night = &night{pos: pos, due: time.Now().Add(floorDelay(s.opts.NightFloor)), chosen: map[uint8]engine.Seat{}}
	}
	return s.night
}

// floorDelay draws a night's delay between floor and twice it.
func floorDelay(floor time.Duration) time.Duration {
	if floor <= 0 {
		return 0
	}
	return floor + rand.N(floor)
}

// botActions posts a bot's night actions: its choice for each power its
// seat holds (games.NightBot). s.mu is held.
func (s *Session) botActions(seat engine.Seat) error {
	me := s.lt.Seats[seat]
	choices := map[uint8]engine.Seat{}
	if ds := me.Player.Decisions(me.Replica); len(ds) > 0 {
		nb, ok := s.bots[seat].(games.NightBot)
		if !ok {
			return fmt.Errorf("%s's bot makes no night choices", me.Name)
		}
		nb.See(me.Player, me.Replica)
		for _, d := range ds {
			choices[d.Power] = nb.Decide(s.lt.View().Rules(), d)
		}
	}
	if err := s.lt.Actions(seat, choices); err != nil {
		return fmt.Errorf("%s's night actions: %w", me.Name, err)
	}
	return nil
}

// Decide implements [session.Actor].
func (s *Session) Decide(power uint8, target engine.Seat) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.nightNow()
	if n == nil {
		return errors.New("the table does not ask for your night choice now")
	}
	me := s.lt.Seats[s.opts.Seat]
	i := slices.IndexFunc(me.Player.Decisions(me.Replica), func(d engine.Effect) bool { return d.Power == power })
	if i < 0 {
		return errors.New("you hold no such power now")
	}
	if !slices.Contains(me.Player.Decisions(me.Replica)[i].Targets, target) {
		return errors.New("not a target you may choose")
	}
	n.chosen[power] = target
	defer s.notify()
	if len(n.chosen) < len(me.Player.Decisions(me.Replica)) {
		return nil
	}
	return s.postNight(n)
}

// postNight posts the local seat's night actions now (the player decided
// everything, or slept). s.mu is held.
func (s *Session) postNight(n *night) error {
	s.night = nil
	pos := s.lt.View().Pos()
	err := s.lt.Actions(engine.Seat(s.opts.Seat), n.chosen)
	if err != nil && s.lt.View().Pos() != pos {
		// Published, then the table failed: it stops.
		s.failed = err.Error()
		s.log.Error("local night actions", "err", err)
		err = nil
	}
	s.wakeRun()
	return err
}

// Sleep implements [session.Actor].
func (s *Session) Sleep() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.nightNow()
	if n == nil {
		return errors.New("the table does not ask for your night actions now")
	}
	me := s.lt.Seats[s.opts.Seat]
	if len(me.Player.Decisions(me.Replica)) > 0 {
		return errors.New("you must choose first")
	}
	n.slept = true
	defer s.notify()
	return s.postNight(n)
}

func (s *Session) wakeRun() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// botMove plays a bot's move (games.BotTurn). s.mu is held.
func (s *Session) botMove(seat engine.Seat) error {
	if s.moves++; s.moves > games.MaxBotMoves {
		return fmt.Errorf("the game did not end in %d moves", games.MaxBotMoves)
	}
	me := s.lt.Seats[seat]
	m, swaps, err := games.BotTurn(s.game, s.bots[seat], me.Player, me.Replica)
	if err != nil {
		return fmt.Errorf("%s: %w", me.Name, err)
	}
	if len(swaps) > 0 {
		s.bit = &botBit{seat: seat, bit: swaps[0]}
	}
	s.log.Info("bot move", "seat", seat, "move", s.game.FormatMove(s.lt.View().Rules(), m))
	if err := s.lt.Move(seat, m, swaps); err != nil {
		return fmt.Errorf("%s: %w", me.Name, err)
	}
	return nil
}

func (s *Session) notify() {
	select {
	case s.updates <- struct{}{}:
	default:
	}
}

// Snapshot implements [session.Session].
func (s *Session) Snapshot() session.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.lt.View()
	p := s.lt.Seats[s.opts.Seat].Player
	snap := session.Snapshot{
		Seat:     s.opts.Seat,
		Rules:    v.Rules(),
		Memory:   slices.Clone(p.Memory),
		Known:    p.Known(s.lt.Seats[s.opts.Seat].Replica),
		Opened:   s.lt.Seats[s.opts.Seat].Replica.Opened(),
		SwapBits: p.SwapBits(),
		Viewer:   s.game.Viewer(),
		Log:      slices.Clone(s.narr.Lines()),
		Record:   s.narr.Record(),
		Verdict:  s.failed,
		Entries:  int(v.Pos()),
	}
	for _, seat := range s.lt.Seats {
		snap.Names = append(snap.Names, seat.Name)
	}
	if kn, ok := s.game.Table().(games.Knower); ok {
		me := s.lt.Seats[s.opts.Seat]
		snap.Private = kn.Knowledge(v.Rules(), me.Player, me.Replica)
	}
	seat, kind, ok := v.Expect()
	over := false
	if r := v.Rules(); r != nil {
		over = r.Next().Kind == engine.NeedNothing
	}
	switch {
	case !ok || s.failed != "" || over:
		snap.Over = true
	case kind == table.BodyMove && int(seat) == s.opts.Seat:
		snap.MyTurn = true
	case kind == table.BodyActions && int(seat) == s.opts.Seat:
		snap.MyTurn, snap.Night = true, true
		me := s.lt.Seats[seat]
		for _, d := range me.Player.Decisions(me.Replica) {
			if _, done := s.chosen(d.Power); !done {
				snap.Decisions = append(snap.Decisions, d)
			}
		}
	default:
		snap.Waiting = &session.Wait{Seat: int(seat), Name: s.lt.Seats[seat].Name}
	}
	return snap
}

// chosen returns the local seat's choice for power this night, if made.
func (s *Session) chosen(power uint8) (engine.Seat, bool) {
	if s.night == nil || s.night.pos != s.lt.View().Pos() {
		return 0, false
	}
	t, ok := s.night.chosen[power]
	return t, ok
}

// Updates implements [session.Session].
func (s *Session) Updates() <-chan struct{} { return s.updates }

// Submit implements [session.Session].
func (s *Session) Submit(m engine.Move, swaps []bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed != "" {
		return fmt.Errorf("the table stopped: %s", s.failed)
	}
	seat, kind, ok := s.lt.View().Expect()
	if !ok || kind != table.BodyMove || int(seat) != s.opts.Seat {
		return errors.New("it is not your move")
	}
	m.Seat = engine.Seat(s.opts.Seat)
	raw := s.lt.View().Rules()
	if raw == nil {
		return errors.New("the game has not started")
	}
	if _, _, err := raw.Apply(m); err != nil {
		return err
	}
	s.log.Info("local move", "move", s.game.FormatMove(raw, m))
	pos := s.lt.View().Pos()
	if err := s.lt.Move(m.Seat, m, swaps); err != nil {
		// The author's replica refuses before anything is published; an
		// error after that is the table's, and it stops.
		if s.lt.View().Pos() == pos {
			return err
		}
		s.failed = err.Error()
		s.log.Error("local move", "err", err)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.notify()
	return nil
}

// Transcript returns the game so far.
func (s *Session) Transcript() *ledger.Transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lt.Transcript()
}

// Close implements [session.Session]: it stops the bots.
func (s *Session) Close() error {
	s.cancel()
	<-s.done
	return nil
}

// SeatKnown returns what seat knows now, by slot (table.Player.Known):
// every seat of a local table lives in this process. Tests use it to
// check a screen against the real deal; a screen must use its own
// seat's Snapshot.Known only.
func (s *Session) SeatKnown(seat int) map[engine.Slot]engine.Card {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seat < 0 || seat >= len(s.lt.Seats) {
		return nil
	}
	me := s.lt.Seats[seat]
	return me.Player.Known(me.Replica)
}
