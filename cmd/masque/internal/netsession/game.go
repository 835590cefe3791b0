package netsession

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/store"
)

// GameConfig describes a seat's game on an open state directory.
type GameConfig struct {
	Node *p2p.Node
	// Games are the games the table's may be; nil: the registry's.
	Games []games.Game
	Store *store.Store // store.Create after seating, or store.Open after a restart
	// Bot plays the seat's moves (seeded by Seed); otherwise they come
	// from Submit.
	Bot  bool
	Seed uint64
	// BotDelay: a bot thinks this long before each move or night choice
	// (SeatConfig.BotDelay).
	BotDelay time.Duration
	// Timeout is how long a silent seat is waited for before the table
	// stops with a timeout verdict; 0 waits forever.
	Timeout time.Duration
	// Tick is how often OnWait is called (default 500ms).
	Tick time.Duration
	// Narrate, if set, receives every line of public narration. It is
	// called from the room's goroutine and must not block.
	Narrate func(line string)
	// OnWait, if set, receives the room's countdown with the awaited
	// seat's name. It must not block.
	OnWait func(w p2p.Wait, name string)
	// OnClose are called by Close after the room and store are closed
	// (e.g. to close the node).
	OnClose []func()
	// NightFloor: a person's seat without a power at night posts its
	// actions by itself after a delay between NightFloor and twice it
	// (session.NightFloor), unless the player sleeps first; 0: at once.
	NightFloor time.Duration
	// OnChat, if set, receives every new chat message (the seat's own
	// included), e.g. to narrate it headless. It must not block.
	OnChat func(session.ChatLine)
}

// Game is one seat at a running networked table. It implements
// session.Session for the play screen, and serves headless bots.
type Game struct {
	cfg     GameConfig
	seat    *Seat
	room    *p2p.Room
	names   []string
	cancel  context.CancelFunc
	done    chan struct{}
	updates chan struct{}

	mu      sync.Mutex
	wait    *session.Wait
	waitPos uint64 // the position g.wait is at
	out     *p2p.Outcome
	err     error
	closed  bool
	salt    [32]byte      // the seat's salt for sealed choices (SealSalt)
	restart int           // entries replayed from the state directory
	timeout time.Duration // how long the room waits for a silent seat
	// dir is the seat's state directory; waitMark when this peer started
	// waiting at the entry another seat must author (WaitFile), kept
	// across a restart so that the countdown goes on; waitKept whether
	// waitMark is the one in WaitFile (see waitSince).
	dir      string
	waitMark TurnMark
	waitKept bool
	chat     []*chat.Message // the table chat, in the order it came
	chatAt   []int           // by message of chat, the log lines before it (chatAtFile); may be shorter
	chatErr  error           // the first failure to keep a chat message
}

var (
	_ session.Session = (*Game)(nil)
	_ session.Sealer  = (*Game)(nil)
	_ session.Chatter = (*Game)(nil)
	_ session.Actor   = (*Game)(nil)
	_ session.Leaver  = (*Game)(nil)
)

// Start opens the room of cfg.Store (replaying any stored entries: a
// restart) and runs it in the background until the game ends, a verdict
// stops it, ctx is done or Close is called.
func Start(ctx context.Context, cfg GameConfig) (*Game, error) {
	t := cfg.Store.Table()
	me := cfg.Node.ID()
	seat := -1
	var names []string
	for i, s := range t.Roster.Seats {
		if string(s.PeerID) == string(me) {
			seat = i
		}
		names = append(names, s.Name)
	}
	if seat < 0 {
		return nil, fmt.Errorf("the state directory %s is another player's: this identity (%s) has no seat in it", cfg.Store.Dir(), me)
	}
	if err := CheckRosterOf(cfg.Games, t.Roster); err != nil {
		return nil, fmt.Errorf("the table in %s cannot be played over the network: %w", cfg.Store.Dir(), err)
	}
	secret, err := cfg.Store.Secret()
	if err != nil {
		return nil, err
	}
	keys, err := table.UnmarshalSeatSecrets(secret)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (a state directory from an older masque cannot be resumed)", cfg.Store.Dir(), err)
	}
	pub, err := table.VerifySeatKeys(t.Roster.TableID, seat, t.Roster.Seats[seat])
	if err != nil || pub.Card.X.Equal(keys.Card.Public()) != 1 || pub.View.X.Equal(keys.View.Public()) != 1 {
		return nil, fmt.Errorf("the state directory %s is another player's: its keys are not seat %d's", cfg.Store.Dir(), seat)
	}
	bits, err := loadSwapBits(cfg.Store.Dir())
	if err != nil {
		return nil, fmt.Errorf("your secret swaps: %w", err)
	}
	dir := cfg.Store.Dir()
	shuffles, err := loadShuffles(dir)
	if err != nil {
		return nil, fmt.Errorf("your shuffles of your hidden hand: %w", err)
	}
	salt, err := sealSalt(dir)
	if err != nil {
		return nil, fmt.Errorf("your secret for sealed choices: %w", err)
	}
	checks, err := loadChecks(dir)
	if err != nil {
		return nil, fmt.Errorf("whom you checked at night: %w", err)
	}
	ballots, err := loadBallots(dir)
	if err != nil {
		return nil, fmt.Errorf("your ballots' secrets: %w", err)
	}
	turn, err := loadTurn(dir)
	if err != nil {
		return nil, fmt.Errorf("when your turn began: %w", err)
	}
	leaving, err := loadLeaving(dir)
	if err != nil {
		return nil, fmt.Errorf("whether you asked to leave: %w", err)
	}
	waited, err := loadWait(dir)
	if err != nil {
		return nil, fmt.Errorf("when this seat started waiting: %w", err)
	}
	g := &Game{cfg: cfg, names: names, salt: salt, done: make(chan struct{}), updates: make(chan struct{}, 1), dir: dir, waitMark: waited, waitKept: true}
	g.seat, err = NewSeat(SeatConfig{Seat: seat, Roster: t.Roster, Sign: cfg.Node.Identity().SigningKey(), Keys: keys,
		Games: cfg.Games, Bot: cfg.Bot, Seed: cfg.Seed, BotDelay: cfg.BotDelay, Narrate: cfg.Narrate, OnChange: g.notify,
		SwapBits: bits, KeepSwapBits: func(pos uint64, b []bool) error { return appendSwapBits(dir, pos, b) },
		Shuffles: shuffles, KeepShuffle: func(ls table.LoneShuffle) error { return appendShuffle(dir, ls) },
		SealSalt: &salt, Turn: turn, KeepTurn: func(m TurnMark) error { return keepTurn(dir, m) },
		CheckTargets: checks, KeepCheck: func(pos uint64, target engine.Seat) error { return appendCheck(dir, pos, target) },
		BallotSecrets: ballots, KeepBallots: func(pos uint64, s [][]byte) error { return appendBallots(dir, pos, s) },
		NightFloor: cfg.NightFloor, Leaving: leaving, KeepLeaving: func() error { return keepLeaving(dir) }})
	if err != nil {
		return nil, err
	}
	// The table's move time, when it sets one, is every peer's patience:
	// people get the same time whoever waits for them.
	g.timeout = cfg.Timeout
	if mt := MoveTime(t.Roster); mt > 0 && g.timeout > 0 && mt > g.timeout {
		g.timeout = mt
	}
	if g.chat, err = loadChat(dir); err != nil {
		return nil, err
	}
	if g.chatAt, err = loadChatAt(dir); err != nil {
		return nil, err
	}
	if len(g.chatAt) != len(g.chat) {
		g.chatAt = nil // torn, or kept by an earlier version: places unknown
	}
	g.room, err = cfg.Node.OpenRoom(p2p.RoomConfig{Store: cfg.Store, Replica: g.seat, Author: g.seat.Author,
		Timeout: g.timeout, Tick: cfg.Tick, OnWait: g.onWait,
		Chat: g.chat, OnChat: g.onChat, MayChat: g.mayChat})
	if err != nil {
		return nil, err
	}
	g.restart = int(cfg.Store.Len())
	ctx, g.cancel = context.WithCancel(ctx)
	go g.run(ctx)
	return g, nil
}

func (g *Game) run(ctx context.Context) {
	defer close(g.done)
	out, err := g.room.Run(ctx)
	if f := g.seat.Failure(); f != nil && err != nil {
		err = fmt.Errorf("%w (this seat could not follow the game: %v)", err, f)
	}
	g.mu.Lock()
	g.out, g.err, g.wait = out, err, nil
	g.mu.Unlock()
	g.notify()
}

func (g *Game) notify() {
	select {
	case g.updates <- struct{}{}:
	default:
	}
}

func (g *Game) onWait(w p2p.Wait) {
	name := "?"
	if int(w.Seat) < len(g.names) {
		name = g.names[w.Seat]
	}
	g.mu.Lock()
	g.waitPos = w.Pos
	if w.Local && w.Checking {
		g.wait = &session.Wait{Seat: int(w.Seat), Name: name, Checking: true}
	} else if w.Local {
		g.wait = nil
	} else {
		sw := &session.Wait{Seat: int(w.Seat), Name: name, Left: w.Left, Offline: !w.Connected, NoContactSince: w.NoContactSince}
		sw.Since = g.waitSince(w)
		if w.Left > 0 {
			sw.Deadline = sw.Since.Add(w.Left + w.Waited)
			sw.Left = max(0, time.Until(sw.Deadline))
		}
		g.wait = sw
	}
	g.mu.Unlock()
	if g.cfg.OnWait != nil {
		g.cfg.OnWait(w, name)
	}
	g.notify()
}

// waitSince is when this peer started waiting at the entry the room
// waits for (w, not the local seat's), kept in WaitFile, so that a
// restarted peer shows the deadline it showed before (since plus the
// table's timeout), as the mover's screen (TurnFile) and the peers that
// did not restart do, rather than a full move time from its restart.
//
// A wait is written to WaitFile only once the room reports it a second
// time (its tick, every RoomConfig.Tick: the wait has lasted), not when
// it begins: most waits end within milliseconds, and writing each one
// (a file replaced and synced, every entry at every seat) was a third
// of the CPU of a 13-process bot game (issue 28, cpu28b). A peer that
// restarts within a tick of a wait's start counts from its restart, at
// most a tick more than its peers show. g.mu is held.
func (g *Game) waitSince(w p2p.Wait) time.Time {
	now := time.Now()
	since := now.Add(-w.Waited)
	switch m := g.waitMark; {
	case m.Pos == w.Pos && !m.Since.IsZero() && m.Since.Before(since) && !m.Since.After(now):
		since = m.Since // waited for before a restart: the clock goes on
	case m.Pos != w.Pos || m.Since.IsZero():
		g.waitMark, g.waitKept = TurnMark{Pos: w.Pos, Since: since}, false
		return since
	}
	if !g.waitKept && g.dir != "" {
		// Only the countdown shown after a restart depends on it: a
		// failure to keep it changes nothing else.
		g.waitKept = true
		_ = keepWait(g.dir, g.waitMark)
	}
	return since
}

// SealSalt implements session.Sealer: the seat's salt for sealed choices,
// kept in its state directory (SealSaltFile) so that a restarted seat
// opens what it sealed before.
func (g *Game) SealSalt() [32]byte { return g.salt }

// Replayed is the number of entries replayed from the state directory when
// the game started (non-zero after a restart).
func (g *Game) Replayed() int { return g.restart }

// Seat is the local seat.
func (g *Game) Seat() int { return int(g.room.Seat()) }

// Game is the roster's game name.
func (g *Game) Game() string { return g.seat.Game() }

// PublishesKeys reports whether the table's roster has every seat publish
// its card key at the end.
func (g *Game) PublishesKeys() bool { return PublishesKeys(g.cfg.Store.Table().Roster) }

// Names are the players' names by seat.
func (g *Game) Names() []string { return g.names }

// GameID is the roster's hash.
func (g *Game) GameID() ledger.Hash { return g.room.GameID() }

// Done is closed when the game has stopped.
func (g *Game) Done() <-chan struct{} { return g.done }

// Result waits for the end of the game: the outcome (Verdict nil: the game
// ran to its end) or a local failure.
func (g *Game) Result() (*p2p.Outcome, error) {
	<-g.done
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.out, g.err
}

// Table is the seat's replica: every entry of the log applied, each one's
// signature, proofs and rules checked as it came. Call it once Result has
// returned (the room no longer applies entries).
func (g *Game) Table() *table.Table { return g.seat.tab }

// Roster is the roster every seat signed.
func (g *Game) Roster() *ledger.Roster { return g.cfg.Store.Table().Roster }

// Transcript is the roster, its signatures and the log so far (read back
// from the state directory but for the latest entries).
func (g *Game) Transcript() (*ledger.Transcript, error) {
	t := g.cfg.Store.Table()
	entries, err := g.room.Log()
	if err != nil {
		return nil, err
	}
	return &ledger.Transcript{Roster: t.Roster, RosterSigs: t.Sigs, Entries: entries}, nil
}

// Snapshot implements session.Session.
func (g *Game) Snapshot() session.Snapshot {
	v := g.seat.View()
	s := session.Snapshot{Seat: v.Seat, Names: v.Names, Rules: v.Rules, Memory: v.Memory, SwapBits: v.SwapBits, Log: v.Log, Known: v.Known, Opened: v.Opened,
		Viewer: g.seat.game.Viewer(), Record: v.Record,
		MyTurn: v.MyTurn, Over: v.Over, Entries: v.Entries, Private: v.Private, Night: v.Night, Decisions: v.Decisions, TableNight: v.TableNight,
		CanLeave: v.CanLeave, Leaving: v.Leaving}
	// Out of the game: its program may stop once every other seat holds
	// the entry with its card key (it would take the entry with it).
	s.Retired = v.Retired && g.room.Held(v.RetiredAt)
	if v.MyTurn && !v.TurnSince.IsZero() {
		s.MySince = v.TurnSince
		if g.timeout > 0 {
			s.MyDeadline = v.TurnSince.Add(g.timeout)
		}
	}
	// The entry due, read before g.mu (the seat's lock is never taken
	// under it).
	duePos, dueSeat, dueKind, dueOK := g.seat.Due()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.wait != nil && !v.Over && !v.MyTurn {
		w := *g.wait
		if !w.Deadline.IsZero() {
			w.Left = max(0, time.Until(w.Deadline))
		}
		if dueOK && duePos == g.waitPos && int(dueSeat) == w.Seat {
			w.What = seatview.WorkWaiting(w.Name, dueKind)
		}
		s.Waiting = &w
	}
	select {
	case <-g.done:
		s.Over = true
		s.Waiting = nil
		switch {
		case g.err != nil:
			s.Verdict = "stopped: " + g.err.Error()
		case g.out != nil && g.out.Verdict != nil:
			s.Verdict = g.out.Verdict.String()
		}
	default:
	}
	return s
}

// Updates implements session.Session.
func (g *Game) Updates() <-chan struct{} { return g.updates }

// stopped is an error once the game has stopped (nothing more can be
// played), else nil.
func (g *Game) stopped() error {
	select {
	case <-g.done:
		return errors.New("the game has stopped")
	default:
		return nil
	}
}

// Submit implements session.Session.
func (g *Game) Submit(m engine.Move, swaps []bool) error {
	if err := g.stopped(); err != nil {
		return err
	}
	return g.seat.Submit(m, swaps)
}

// Decide implements session.Actor.
func (g *Game) Decide(power uint8, target engine.Seat) error {
	if err := g.stopped(); err != nil {
		return err
	}
	return g.seat.Decide(power, target)
}

// Sleep implements session.Actor.
func (g *Game) Sleep() error {
	if err := g.stopped(); err != nil {
		return err
	}
	return g.seat.Sleep()
}

// Leave implements session.Leaver: the seat leaves the game for good at
// its next move (see Seat.Leave).
func (g *Game) Leave() error {
	if err := g.stopped(); err != nil {
		return err
	}
	return g.seat.Leave()
}

// Close implements session.Session: it stops the room (peers' sync
// requests are no longer answered), closes the state directory and runs
// cfg.OnClose.
func (g *Game) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	<-g.done
	g.room.Close()
	err := g.cfg.Store.Close()
	for _, f := range g.cfg.OnClose {
		f()
	}
	return err
}
