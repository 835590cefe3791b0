package netsession

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/joinproto"
	"github.com/masque-games/masque/p2p/lobby"
)

// Peer is a player's presence on the network: its identity and libp2p
// node.
type Peer struct {
	ID   *identity.Identity
	Node *p2p.Node
	// Games are the games this peer hosts and joins; nil: the registry's.
	Games []games.Game

	// listing is the table in play this peer created, still announced for
	// spectators (see Host); Close withdraws it.
	listingMu sync.Mutex
	listing   []func()
}

// NewPeer loads (or creates) the identity kept in configDir and starts a
// libp2p node listening on listen (empty: p2p.DefaultListenAddrs). The
// node's diagnostics go to logger (nil: discarded).
func NewPeer(configDir string, listen []string, logger ...*slog.Logger) (*Peer, error) {
	id, err := identity.Load(configDir)
	if err != nil {
		return nil, err
	}
	return NewPeerWithIdentity(id, listen, logger...)
}

// NewPeerWithIdentity starts a node for id, its diagnostics to logger
// (nil: discarded).
func NewPeerWithIdentity(id *identity.Identity, listen []string, logger ...*slog.Logger) (*Peer, error) {
	cfg := p2p.Config{Identity: id, ListenAddrs: listen}
	if len(logger) > 0 {
		cfg.Logger = logger[0]
	}
	node, err := p2p.NewNode(cfg)
	if err != nil {
		return nil, err
	}
	return &Peer{ID: id, Node: node}, nil
}

// NewRelayedPeer is NewPeer with relays (p2p.Config.Relays): reservations
// on every relay, circuit addresses announced, hole punching on. No
// relays: exactly NewPeer.
func NewRelayedPeer(configDir string, listen []string, relays []peer.AddrInfo, logger *slog.Logger) (*Peer, error) {
	id, err := identity.Load(configDir)
	if err != nil {
		return nil, err
	}
	node, err := p2p.NewNode(p2p.Config{Identity: id, ListenAddrs: listen, Relays: relays, Logger: logger})
	if err != nil {
		return nil, err
	}
	return &Peer{ID: id, Node: node}, nil
}

// Close stops the node.
func (p *Peer) Close() error {
	p.listingMu.Lock()
	stops := p.listing
	p.listing = nil
	p.listingMu.Unlock()
	for _, stop := range stops {
		stop()
	}
	return p.Node.Close()
}

// keepListed keeps an announcement (mDNS, a directory) of the table in
// play until Close.
func (p *Peer) keepListed(stop func()) {
	p.listingMu.Lock()
	p.listing = append(p.listing, stop)
	p.listingMu.Unlock()
}

// ValidName reports whether s has the form every game's player names
// share ([games.CheckNameForm]), for a name checked before the game is
// known (a joiner's); each game's own rule is checked where the game is
// known ([games.CheckName]: the host's seating, [CheckRoster]).
func ValidName(s string) bool { return games.CheckNameForm(s) == nil }

// ErrFixedDeal is wrapped by [CheckRoster]'s error for a roster whose
// options fix the deal.
var ErrFixedDeal = errors.New("the roster fixes the deal")

// CheckRoster checks a roster for network play, before this peer signs it
// (a joiner), offers it (the host) or plays it (a game starting, or
// restarting from its state directory): its game is known, its options
// decode, do not fix the deal, and name the roster's players, and every
// seat's name is a valid player name in its game ([games.CheckName]: no
// control or bidi characters).
//
// Fixed deals are for scripted tables ('masque script', tests): the table
// starts with the deal written in the options (the table options' Deal,
// or a game's own options, games.Rules.FixedDeal: roles laid face up, a
// round's cards), so over the network the host who wrote the roster would choose
// every player's card. A network table draws its deal from every player's
// coins or shuffles; a roster that fixes any of it, in any game
// ([games.DealFixed]), is refused with an error wrapping [ErrFixedDeal].
func CheckRoster(r *ledger.Roster) error { return CheckRosterOf(nil, r) }

// CheckRosterOf is [CheckRoster] for a roster of one of the games in list
// (nil: the registry's).
func CheckRosterOf(list []games.Game, r *ledger.Roster) error {
	if err := checkDealDrawn(list, r.Game, r.Options); err != nil {
		return err
	}
	g, err := lookup(list, r.Game)
	if err != nil {
		return err
	}
	for i, s := range r.Seats {
		if err := games.CheckName(g, s.Name); err != nil {
			return fmt.Errorf("seat %d: name %q: %w", i, s.Name, err)
		}
	}
	if _, err := RosterNamesOf(list, r); err != nil {
		return err
	}
	return nil
}

// checkDealDrawn returns an error wrapping [ErrFixedDeal] when the table
// options opts of game (a registry name) fix the deal in any way
// ([games.DealFixed]), or the error that they do not decode or the game
// is unknown.
func checkDealDrawn(list []games.Game, game string, opts []byte) error {
	o, err := table.UnmarshalOptions(opts)
	if err != nil {
		return err
	}
	g, err := lookup(list, game)
	if err != nil {
		return fmt.Errorf("the table plays %q, a game this program does not know", game)
	}
	if how := games.DealFixed(g, o); how != "" {
		return fmt.Errorf("%w (%s; whoever wrote them, the host, chose the cards in advance): "+
			"a network table's deal is drawn from every player's coins and shuffles, so this table is refused", ErrFixedDeal, how)
	}
	return nil
}

// ErrRosterRefused is wrapped by [Peer.Join]'s error when the roster the
// creator offered fails [CheckRoster]: it was not signed, and Join does
// not ask again.
var ErrRosterRefused = errors.New("roster refused, not signed")

// lookup returns the game called name in list (nil: the registry's).
func lookup(list []games.Game, name string) (games.Game, error) {
	if list == nil {
		list = registry.All()
	}
	return games.Lookup(list, name)
}

// TableOptions returns the roster options of a table of game (a registry
// name) for the seated names: the game's options for setup (nil: the
// game's default for the player count), the card keys published at the
// end if publishKeys, and the memory panel hidden on every screen if
// hideMemory.
func TableOptions(game string, names []string, setup games.Setup, publishKeys, hideMemory bool, moveTime time.Duration) ([]byte, error) {
	g, err := registry.Lookup(game)
	if err != nil {
		return nil, err
	}
	return TableOptionsOf(g, names, setup, publishKeys, hideMemory, moveTime)
}

// TableOptionsOf is [TableOptions] for game g, which need not be one of
// the registry's (a test's game).
func TableOptionsOf(g games.Game, names []string, setup games.Setup, publishKeys, hideMemory bool, moveTime time.Duration) ([]byte, error) {
	var err error
	if setup == nil {
		if setup, err = g.Configure(len(names), "", nil); err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name(), err)
		}
	}
	enc, err := setup.Options(names)
	if err != nil {
		return nil, err
	}
	return (&table.Options{Game: enc, PublishKeys: publishKeys, HideMemory: hideMemory, MoveTime: moveTime}).MarshalBinary()
}

// proveKeys returns the seat's public keys with their proofs, bound to
// the table, the seat and the peer (a roster seat's Keys field).
func proveKeys(keys table.SeatSecrets, tableID [16]byte, seat int, id peer.ID) []byte {
	return keys.PublicKeys(tableID, seat, []byte(id))
}

// checkKeys verifies a seat's key proofs during seating: the creator's
// check of a joiner before it takes a seat (its refusal names the table
// and the seat, for which the joiner proves again), and a joiner's check
// of every seat of the roster offered before it signs it. table.New
// checks the signed roster's keys again when the game starts; these
// checks come before anything is signed, so that one bad seat is refused
// on its own instead of stopping the table for everyone.
func checkKeys(tableID [16]byte, seat int, si ledger.SeatInfo) error {
	_, err := table.VerifySeatKeys(tableID, seat, si)
	return err
}

// HostConfig describes a table to create.
type HostConfig struct {
	// Game is the game (a registry name; the registry's default when
	// empty) and Setup its setup (nil: the default for the player count;
	// a scenario, for a game that takes one).
	Game  string
	Setup games.Setup
	// PublishKeys: every seat publishes its card key at the end (a roster
	// option: it holds for everyone).
	PublishKeys bool
	// HideMemory: every screen at the table hides the memory panel (a
	// roster option, like PublishKeys).
	HideMemory bool
	// MoveTime, if not 0, is how long every peer waits for a move (a
	// roster option: the same for everyone at the table).
	MoveTime time.Duration
	Table    string            // the table's name in the lobby
	Player   string            // the creator's name (seat 0)
	Players  int               // seats, the creator's included
	Keys     table.SeatSecrets // the creator's secret keys
	// Advertise announces the table by mDNS with these options.
	Advertise bool
	Lobby     lobby.Options
	// OnOpen, if set, is called once the table is open, with its lobby
	// description and the advertisement's error (nil when advertised or
	// not asked).
	OnOpen func(t lobby.Table, advertErr error)
	// OnSeats, if set, is called with the seated names whenever a seat is
	// taken or freed. It must not block.
	OnSeats func(names []string, total int)
	// Directory lists the table in these relays' directories (join by
	// code online) while seats are free, withdrawn once seating ends.
	Directory []peer.AddrInfo
	// OnDirectory, if set, is called with each relay's first answer to a
	// listing and every change of it (nil: listed). It must not block.
	OnDirectory func(relay peer.ID, code string, err error)
	// Patience is how long a joiner whose connection dropped keeps its
	// seat, and how long the roster agreement may take
	// (p2p.TableConfig.Patience; 0: p2p.DefaultPatience). The CLI gives
	// the table's --timeout.
	Patience time.Duration
	// OnTable, if set, is called once the table is open, with the table:
	// players without a node of their own (phones) are seated on it
	// (p2p.Table.SeatForwarded). It must not block.
	OnTable func(t *p2p.Table)
	// TableID, if not zero, is the table's id (a table opened again after
	// the host's program stopped during seating), with Held its seats
	// taken then and CardKey the creator's seat (its keys' proofs, as
	// recorded: a roster offered again must be the same); zero draws a
	// new id.
	TableID [16]byte
	Held    []p2p.HeldSeat
	CardKey []byte
	// OnSeating, if set, records the seating (durably): it is called
	// before the table opens (an error gives up the table, and nothing is
	// announced), then whenever a seat is taken or freed (an error is
	// logged). It must not block for long.
	OnSeating func(s SeatingState) error
}

// SeatingState is what a host records during seating to open its table
// again after a crash: the table id, the creator's seat's public keys
// and the joiners' seats.
type SeatingState struct {
	TableID [16]byte
	CardKey []byte
	Held    []p2p.HeldSeat
}

// Host opens a table, seats joiners until it is full and runs the roster
// agreement. Joiners' card keys must be proven for the seat they get.
func (p *Peer) Host(ctx context.Context, cfg HostConfig) (*p2p.Seating, error) {
	if cfg.Game == "" {
		cfg.Game = registry.Default
	}
	g, err := lookup(p.Games, cfg.Game)
	if err != nil {
		return nil, err
	}
	lo, hi := g.Players()
	if cfg.Players < lo || cfg.Players > hi {
		return nil, fmt.Errorf("%d players: %s is for %d..%d", cfg.Players, cfg.Game, lo, hi)
	}
	if err := games.CheckName(g, cfg.Player); err != nil {
		return nil, fmt.Errorf("player name %q: %w", cfg.Player, err)
	}
	tableID := cfg.TableID
	if tableID == ([16]byte{}) {
		if _, err := crand.Read(tableID[:]); err != nil {
			return nil, err
		}
	}
	card := cfg.CardKey
	if card == nil {
		card = proveKeys(cfg.Keys, tableID, 0, p.ID.PeerID())
	} else if err := checkKeys(tableID, 0, ledger.SeatInfo{Name: cfg.Player, PeerID: []byte(p.ID.PeerID()), SignKey: p.ID.PublicKey(), Keys: card}); err != nil {
		return nil, fmt.Errorf("the creator's recorded card keys: %w", err)
	}
	heldNames := []string{cfg.Player}
	for _, h := range cfg.Held {
		heldNames = append(heldNames, h.Name)
	}
	if cfg.OnSeating != nil {
		if err := cfg.OnSeating(SeatingState{TableID: tableID, CardKey: card, Held: cfg.Held}); err != nil {
			return nil, fmt.Errorf("recording the seating: %w", err)
		}
	}
	desc := tableDesc(cfg.Players, cfg.PublishKeys, cfg.HideMemory)
	lt := lobby.Table{ID: tableID, Name: cfg.Table, Game: cfg.Game, Options: desc, Taken: len(heldNames), Total: cfg.Players,
		Version: lobby.Version, Peer: p.ID.PeerID(), Players: append([]string(nil), heldNames...),
		// Set before the table opens: OnChange reads lt as soon as a
		// joiner (one that was waiting for us, say) is seated.
		Addrs: p.Node.Host().Addrs()}
	var (
		mu     sync.Mutex
		names  = heldNames // by seat, as admitted
		advert *lobby.Advert
		pub    *directory.Publisher
		opened *p2p.Table // once CreateTable returned
	)
	record := func() {
		mu.Lock()
		t := opened
		mu.Unlock()
		if cfg.OnSeating == nil || t == nil {
			return
		}
		// Seating goes on: the callback reports its own failure.
		_ = cfg.OnSeating(SeatingState{TableID: tableID, CardKey: card, Held: t.Held()})
	}
	tbl, err := p.Node.CreateTable(p2p.TableConfig{ID: tableID, Game: cfg.Game, Held: cfg.Held,
		Seats: cfg.Players, Name: cfg.Player, CardKey: card, Patience: cfg.Patience,
		OptionsFor: func(names []string) ([]byte, error) {
			opts, err := TableOptionsOf(g, names, cfg.Setup, cfg.PublishKeys, cfg.HideMemory, cfg.MoveTime)
			if err != nil {
				return nil, err
			}
			// Never offer a fixed deal: joiners refuse it (CheckRoster).
			if err := checkDealDrawn(p.Games, cfg.Game, opts); err != nil {
				return nil, err
			}
			return opts, nil
		},
		ValidateSeat: func(seat int, si ledger.SeatInfo) error {
			if err := games.CheckName(g, si.Name); err != nil {
				return fmt.Errorf("name %q: %w", si.Name, err)
			}
			if err := checkKeys(tableID, seat, si); err != nil {
				// The refusal carries the table id and the seat as
				// fields: a joiner asks again with a proof for them.
				return fmt.Errorf("seat %d's key proofs do not verify for table %x: %w", seat, tableID, err)
			}
			mu.Lock()
			names = append(names[:seat], si.Name)
			mu.Unlock()
			return nil
		},
		OnChange: func(taken, total int) {
			mu.Lock()
			if taken < len(names) {
				names = names[:taken]
			}
			seated := append([]string(nil), names...)
			t := lt
			t.Taken, t.Players = taken, seated
			if advert != nil {
				// A failed re-announcement only delays what the lobby
				// shows; seating goes on.
				_ = advert.Update(t)
			}
			if pub != nil {
				t.Addrs = directory.PublishAddrs(t.Peer, p.Node.Addrs())
				pub.Update(t)
			}
			mu.Unlock()
			record()
			if cfg.OnSeats != nil {
				cfg.OnSeats(seated, total)
			}
		}})
	if err != nil {
		return nil, err
	}
	defer tbl.Close()
	mu.Lock()
	opened = tbl
	mu.Unlock()
	record() // seats taken before opened was set
	if cfg.OnTable != nil {
		cfg.OnTable(tbl)
	}
	var advErr error
	if cfg.Advertise {
		mu.Lock()
		advert, advErr = lobby.Advertise(lt, cfg.Lobby)
		if advErr == nil && len(names) != lt.Taken {
			// Seats were taken meanwhile.
			t := lt
			t.Taken, t.Players = len(names), append([]string(nil), names...)
			_ = advert.Update(t)
		}
		mu.Unlock()
	}
	var seating *p2p.Seating
	defer func() {
		mu.Lock()
		adv, pb := advert, pub
		advert, pub = nil, nil
		mu.Unlock()
		if seating != nil {
			// The game is under way: the table stays announced, for
			// spectators only ('masque watch CODE'), until the peer
			// closes. Its seats are the roster's.
			t := lt
			t.Playing, t.Taken, t.Total, t.Players = true, len(seating.Roster.Seats), len(seating.Roster.Seats), nil
			for _, s := range seating.Roster.Seats {
				t.Players = append(t.Players, s.Name)
			}
			if adv != nil {
				if adv.Update(t) == nil {
					p.keepListed(adv.Close)
				} else {
					adv.Close()
				}
			}
			if pb != nil {
				t.Addrs = directory.PublishAddrs(t.Peer, p.Node.Addrs())
				pb.Update(t)
				// Closing withdraws it: a round trip to each relay, 3 s
				// at most when one is down (an entry not withdrawn
				// expires anyway).
				p.keepListed(pb.Close)
			}
			return
		}
		if adv != nil {
			adv.Close()
		}
		if pb != nil {
			// Giving up (interrupted): the process is about to exit, and
			// the entry must not outlive the table by its TTL.
			pb.Close()
		}
	}()
	if cfg.OnOpen != nil {
		cfg.OnOpen(lt, advErr)
	}
	if len(cfg.Directory) > 0 {
		mu.Lock()
		t := lt
		t.Taken, t.Players = len(names), append([]string(nil), names...)
		t.Addrs = directory.PublishAddrs(t.Peer, p.Node.Addrs())
		var derr error
		pub, derr = directory.NewPublisher(p.Node.Host(), cfg.Directory, t, 0, func(relay peer.ID, err error) {
			if cfg.OnDirectory != nil {
				cfg.OnDirectory(relay, lt.Code(), err)
			}
		})
		mu.Unlock()
		if derr != nil {
			return nil, derr
		}
	}
	st, err := tbl.Seat(ctx)
	if err == nil {
		seating = st
	}
	return st, err
}

// tableDesc is a table's options in the lobby's words.
func tableDesc(players int, publishKeys, hideMemory bool) string {
	desc := fmt.Sprintf("%d players", players)
	if publishKeys {
		desc += ", card keys published at the end"
	} else {
		desc += ", card keys kept secret"
	}
	if hideMemory {
		desc += ", no memory panel"
	}
	return desc
}

// AnnouncePlaying announces again the table of roster r whose game is
// under way, as Host does once seating ends, for spectators ('masque
// watch CODE'): a creator (seat 0) that restarted its game. name is the
// table's name in the lobby; advertise announces it by mDNS with opts,
// relays lists it in their directories. The announcements stay until the
// peer closes. It returns an error, and announces nothing, when this peer
// is not the roster's seat 0 (the code names the creator); an mDNS or
// directory failure is returned too, with the other one still made.
func (p *Peer) AnnouncePlaying(r *ledger.Roster, name string, advertise bool, opts lobby.Options, relays []peer.AddrInfo) error {
	if len(r.Seats) == 0 || peer.ID(r.Seats[0].PeerID) != p.ID.PeerID() {
		return errors.New("only the table's creator (seat 0) announces it")
	}
	lt := lobby.Table{ID: r.TableID, Name: name, Game: r.Game, Options: tableDesc(len(r.Seats), PublishesKeys(r), HidesMemory(r)),
		Taken: len(r.Seats), Total: len(r.Seats), Version: lobby.Version, Peer: p.ID.PeerID(), Addrs: p.Node.Host().Addrs(), Playing: true}
	for _, s := range r.Seats {
		lt.Players = append(lt.Players, s.Name)
	}
	var errs []error
	if advertise {
		adv, err := lobby.Advertise(lt, opts)
		if err != nil {
			errs = append(errs, fmt.Errorf("mDNS: %w", err))
		} else {
			p.keepListed(adv.Close)
		}
	}
	if len(relays) > 0 {
		t := lt
		t.Addrs = directory.PublishAddrs(t.Peer, p.Node.Addrs())
		pub, err := directory.NewPublisher(p.Node.Host(), relays, t, 0, nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("directory: %w", err))
		} else {
			p.keepListed(pub.Close)
		}
	}
	return errors.Join(errs...)
}

// JoinConfig says which table to join and as whom.
type JoinConfig struct {
	Creator peer.AddrInfo
	TableID [16]byte // zero: the creator's only table (learnt from its answer)
	Player  string
	// AutoName: when the name is taken, add a suffix and ask again.
	AutoName bool
	Keys     table.SeatSecrets // the joiner's secret keys
	// Seat is the expected seat (the lobby's seats taken); 0 means 1.
	Seat int
	// OnAccepted, if set, is called once a seat is given.
	OnAccepted func(seat, taken, total int)
	// Patience bounds how long, once seated, the join asks again across
	// dropped connections without reaching the table
	// (p2p.JoinConfig.Patience; 0: p2p.DefaultPatience).
	Patience time.Duration
	// OnRetry, if set, is told of every attempt to reach the creator that
	// failed before a seat was given (it is asked again until
	// DialPatience has passed): the attempt's number, the time since the
	// first, the time left, and the error.
	OnRetry func(attempt int, elapsed, left time.Duration, err error)
	// DialPatience is how long the join keeps trying to reach a creator
	// that does not answer before a seat is given (0: DialPatience).
	DialPatience time.Duration
	// StillOpen, if set, is asked after every such failed attempt whether
	// the table still has a seat open (its lobby or directory listing);
	// known is false when that cannot be told. A table known to be open
	// is asked again past DialPatience, up to MaxDialPatience; one known
	// to be closed (full, started, gone) ends the join at once, wrapping
	// ErrTableClosed.
	StillOpen func(ctx context.Context) (open, known bool)
	// SignedDir, if set, is the directory recording the roster this
	// identity signs at each table id (one file per table): a roster
	// other than the one recorded for its table id is refused, wrapping
	// [ErrSecondRoster] (a host run again under the same table id that
	// changed its options or seats). The record is written, durably,
	// before the signature is sent.
	SignedDir string
	// OnLost and OnBack, if set, are told when the connection to the
	// host fails once it seated us (before the roster is offered), and
	// when the host gives the same seat back ([p2p.JoinConfig.OnLost]).
	OnLost func(err error)
	OnBack func(seat, taken, total int)
}

// ErrTableClosed is wrapped by Join's error when the creator could not
// be reached and the table is no longer open ([JoinConfig.StillOpen]).
var ErrTableClosed = errors.New("the table is no longer open (full, started or gone)")

// DialPatience is how long Join keeps trying to reach a creator that does
// not answer (it may be starting, or the network may be losing packets:
// over TCP at 25% loss a connection can take a minute and more).
var DialPatience = 2 * time.Minute

// MaxDialPatience is how long Join keeps trying to reach a creator whose
// table is still listed with a seat open ([JoinConfig.StillOpen]).
var MaxDialPatience = 10 * time.Minute

// seatedPatience is how long Join asks again a creator that says this
// identity holds a seat already (this program restarted, and the
// creator has not seen the old connection go yet; or a second program
// shares the identity).
const seatedPatience = 20 * time.Second

// Dial backoff: the first attempt is asked again after dialBackoffMin,
// each next one after twice as long, at most dialBackoffMax.
const (
	dialBackoffMin = 300 * time.Millisecond
	dialBackoffMax = 5 * time.Second
)

// ErrRefused wraps a creator's refusal.
var ErrRefused = errors.New("refused")

// ErrTableGone: the creator that seated us no longer has the table (its
// masque stopped before the roster was signed; run again, it opens a new
// table): the seat is lost, and the player must join again.
var ErrTableGone = errors.New("the table you sat at is gone")

// ErrHostLost: the creator that seated us stopped answering before the
// roster was signed, for the table's patience: the table is gone if its
// program stopped (run again, it opens a new table, maybe elsewhere).
var ErrHostLost = errors.New("the host of the table you sat at stopped answering before the game began")

// Join asks for a seat at a table and takes part in the roster agreement.
// A card key proof is bound to the table and the seat: when the creator's
// refusal names another table id or next seat than the ones asked for (its
// p2p.JoinRefusedError), Join asks again with a proof for them.
func (p *Peer) Join(ctx context.Context, cfg JoinConfig) (*p2p.Seating, error) {
	if err := games.CheckNameForm(cfg.Player); err != nil {
		return nil, fmt.Errorf("player name %q: %w", cfg.Player, err)
	}
	seat, tableID, name := max(cfg.Seat, 1), cfg.TableID, cfg.Player
	if seat >= ledger.MaxSeats {
		seat = 1 // the lobby's count is only a hint: the creator will say
	}
	var lastErr error
	dialStart := time.Now()
	patience := DialPatience
	if cfg.DialPatience > 0 {
		patience = cfg.DialPatience
	}
	dialUntil := dialStart.Add(patience)
	dialFails, backoff := 0, dialBackoffMin
	seatedAt := 0 // the seat the creator gave us last (0: none yet)
	for attempt := 0; attempt < 200; attempt++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		card := proveKeys(cfg.Keys, tableID, seat, p.ID.PeerID())
		accepted := false
		s, err := p.Node.Join(ctx, p2p.JoinConfig{Creator: cfg.Creator, TableID: tableID, Name: name, CardKey: card,
			Seat: seat, Patience: cfg.Patience, OnLost: cfg.OnLost, OnBack: cfg.OnBack,
			Validate: func(i int, si ledger.SeatInfo) error { return checkKeys(tableID, i, si) },
			CheckRoster: func(r *ledger.Roster) error {
				if err := CheckRosterOf(p.Games, r); err != nil {
					return fmt.Errorf("%w: %w", ErrRosterRefused, err)
				}
				if cfg.SignedDir != "" {
					if err := recordSigned(cfg.SignedDir, r, cfg.Creator.ID); err != nil {
						return fmt.Errorf("%w: %w", ErrRosterRefused, err)
					}
				}
				return nil
			},
			OnSeated: func(given, taken, total int) {
				accepted, seatedAt = true, given
				if cfg.OnAccepted != nil {
					cfg.OnAccepted(given, taken, total)
				}
			}})
		if err == nil {
			if got, err := RosterNamesOf(p.Games, s.Roster); err != nil {
				return nil, err
			} else if len(got) != len(s.Roster.Seats) {
				return nil, errors.New("the roster's options do not name its players")
			}
			return s, nil
		}
		if errors.Is(err, ErrRosterRefused) {
			return nil, err // asking again would get the same roster
		}
		lastErr = err
		var no *p2p.JoinRefusedError
		isNo := errors.As(err, &no)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case isNo && no.Seat != 0 && (no.Seat != seat || no.TableID != tableID):
			// Our proof was for another table or seat than the next one.
			tableID, seat = no.TableID, no.Seat
			continue
		case isNo && no.Code == joinproto.RefusedNoSuchTable && seatedAt != 0:
			// Seated, then the creator no longer has the table: its
			// program stopped before the game began and (run again)
			// opened another. Asking again would seat us at a table we
			// never chose; the player is told.
			return nil, fmt.Errorf("%w: you held seat %d, and its host no longer has the table (its masque stopped before the game began; run again, it opens a new table with a new code): %w", ErrTableGone, seatedAt, err)
		case isNo && no.Code == joinproto.RefusedAlreadySeated && !accepted && time.Since(dialStart) < seatedPatience:
			// Our identity holds a seat there: this program restarted,
			// and the creator has not seen the old connection go yet.
			// Once it has, it gives the seat back to this request.
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		case cfg.AutoName && isNo && no.Code == joinproto.RefusedNameTaken:
			suffix := p.ID.PeerID().String()
			name = truncateName(cfg.Player, 27) + "-" + suffix[len(suffix)-4:]
			cfg.AutoName = false
			continue
		case !accepted && errors.Is(err, p2p.ErrUnreachable) && cfg.StillOpen != nil && dialClosed(ctx, cfg, &dialUntil, dialStart):
			return nil, fmt.Errorf("%w: %w", ErrTableClosed, err)
		case !accepted && errors.Is(err, p2p.ErrUnreachable) && time.Now().Before(dialUntil):
			// The creator is not reachable (yet): it may be starting, or
			// the network losing packets. Ask again, less and less often.
			dialFails++
			attempt-- // not counted against the attempts' cap
			if cfg.OnRetry != nil {
				now := time.Now()
				cfg.OnRetry(dialFails, now.Sub(dialStart), dialUntil.Sub(now), err)
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, dialBackoffMax)
			// Without the swarm's dial backoff cleared, the next attempt
			// would fail at once (with swarm.ErrDialBackoff).
			if sw, ok := p.Node.Host().Network().(interface{ Backoff() *swarm.DialBackoff }); ok {
				sw.Backoff().Clear(cfg.Creator.ID)
			}
			continue
		case seatedAt != 0 && errors.Is(err, p2p.ErrUnreachable):
			// p2p.Join already asked again for its patience.
			return nil, fmt.Errorf("%w (you held seat %d): %w", ErrHostLost, seatedAt, err)
		case accepted && !isNo:
			// Dropped while waiting (an earlier joiner left, seats moved):
			// ask again; a refusal will name the next seat.
			seat = 1
			continue
		case isNo:
			return nil, fmt.Errorf("%w: %w", ErrRefused, err)
		}
		return nil, err
	}
	return nil, lastErr
}

// dialClosed asks cfg.StillOpen whether the table still has a seat open:
// closed, it reports true; open, it gives the dial until MaxDialPatience
// after start (moving *until).
func dialClosed(ctx context.Context, cfg JoinConfig, until *time.Time, start time.Time) bool {
	open, known := cfg.StillOpen(ctx)
	switch {
	case known && !open:
		return true
	case known && open:
		*until = start.Add(max(DialPatience, MaxDialPatience))
	}
	return false
}

func truncateName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// RosterNames returns the player names a roster's options give its game
// (any game of the registry), and checks they are the roster's.
func RosterNames(r *ledger.Roster) ([]string, error) { return RosterNamesOf(nil, r) }

// RosterNamesOf is [RosterNames] for a roster of one of the games in list
// (nil: the registry's).
func RosterNamesOf(list []games.Game, r *ledger.Roster) ([]string, error) {
	o, err := table.UnmarshalOptions(r.Options)
	if err != nil {
		return nil, err
	}
	g, err := lookup(list, r.Game)
	if err != nil {
		return nil, fmt.Errorf("the table plays %q, a game this program does not know", r.Game)
	}
	players, err := g.PlayerNames(o.Game)
	if err != nil {
		return nil, err
	}
	for i, n := range players {
		if i >= len(r.Seats) || r.Seats[i].Name != n {
			return nil, fmt.Errorf("the game's player %d (%s) is not the roster's seat %d", i, n, i)
		}
	}
	return players, nil
}

// HidesMemory reports whether a roster's options ask every screen to hide
// the memory panel.
func HidesMemory(r *ledger.Roster) bool {
	o, err := table.UnmarshalOptions(r.Options)
	return err == nil && o.HideMemory
}

// MoveTime is the table's time for a move (the roster's options), 0 when
// the table leaves it to each peer.
func MoveTime(r *ledger.Roster) time.Duration {
	if o, err := table.UnmarshalOptions(r.Options); err == nil {
		return o.MoveTime
	}
	return 0
}

// PublishesKeys reports whether a roster's options have every seat publish
// its card key at the end.
func PublishesKeys(r *ledger.Roster) bool {
	o, err := table.UnmarshalOptions(r.Options)
	return err == nil && o.PublishKeys
}
