// Package phoneseat is a phone's seat (docs/phones.md): its keys, its
// seating, its replica of the table with the game's rules, its own
// entries and proofs, and its view and choices (seatview), with the
// replication core driven over sealed frames through the machine that
// served its page (p2p/remoteseat). It is pure: no goroutines, no
// network, no clock, no storage of its own. Its caller (the page's
// WebAssembly main, or a test) feeds it the WebSocket's messages, the
// clock and the player's taps, writes the [Effects]' Puts to storage
// before it sends their messages, and draws [Phone.View]. It builds for
// GOOS=js GOARCH=wasm.
package phoneseat

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/remoteseat"
	"github.com/masque-games/masque/p2p/roomcore"
)

// Put is a record to store (IndexedDB) before the messages of the same
// [Effects] leave.
type Put struct {
	Key   string
	Value []byte
}

// Effects is what a step brings out: store Puts first, then send
// Control and Packets, arm Timers (each stepped with [Phone.Timer]).
type Effects struct {
	Puts    []Put
	Control []Control
	Packets [][]byte
	Timers  []roomcore.Timer
}

func (e *Effects) add(o Effects) {
	e.Puts = append(e.Puts, o.Puts...)
	e.Control = append(e.Control, o.Control...)
	e.Packets = append(e.Packets, o.Packets...)
	e.Timers = append(e.Timers, o.Timers...)
}

// me is the phone's own record: who it is and its secrets.
type me struct {
	Name    string
	Seed    []byte // the Ed25519 signing key's seed
	Secrets []byte // table.SeatSecrets
	Salt    []byte // for sealed choices (seatview.Input.Salt)
}

// seated is the table record, once every seat signed.
type seated struct {
	Seat            int
	Roster          []byte
	Addrs           [][][]byte
	Sigs            [][]byte
	Timeout, Window time.Duration
}

// Phone is one phone's seat.
type Phone struct {
	me      me
	sign    ed25519.PrivateKey
	secrets table.SeatSecrets
	games   []games.Game

	// seating
	token    string
	code     string // the table's join code the page's address names ("": none)
	restored restored
	tableID  [16]byte
	seat     int
	offer    *ledger.Roster
	status   string

	// play
	roster *ledger.Roster
	sigs   [][ed25519.SignatureSize]byte
	game   games.Game
	tab    *table.Table
	player *table.Player
	narr   seatview.Narrator
	rs     *remoteseat.Seat
	// pendingPuts are records to store with the next Effects (before
	// their messages leave).
	pendingPuts []Put
	started     bool // the run began (Start)
	ctl         seatview.Controller
	timeout     time.Duration
	window      time.Duration
	saved       int // entries stored
	author      bool
	authorAt    uint64
	myTurn      bool
	// night: the table waits for this seat's night actions (myTurn too),
	// since nightSince; chosen are the targets chosen so far, by power.
	night      bool
	nightSince time.Time
	chosen     map[uint8]engine.Seat
	failure    error
	outcome    *roomcore.Outcome
	endErr     error
	waitName   string
	waitLeft   time.Duration
	waitSeat   int    // the seat waited for (waitName's)
	waitPos    uint64 // the position it is waited for at
	// waitUntil is when the wait the table is in times out (zero: no
	// limit), from waitMark: when this seat began waiting at its
	// position, kept in storage ("wait") so that a reloaded page shows
	// the deadline it showed before, as a restarted `masque join` does
	// (netsession's WaitFile and TurnFile), not a full move time again.
	waitUntil time.Time
	waitMark  waitMark
	// now is the time of the last step (the page's countdown is drawn
	// from it).
	now time.Time
	// chat is the table chat as this phone saw it.
	chat chatLog
	// leaving: the player asked to leave the game (leave.go); bot makes
	// its night choices until it is out.
	leaving bool
	bot     games.Bot
}

// waitMark is when this seat began waiting at a position of the log.
type waitMark struct {
	Pos   uint64 `json:"pos"`
	Since int64  `json:"since"` // Unix milliseconds
}

// Options are the table-wide settings a phone plays by.
type Options struct {
	// Timeout is how long a silent seat is waited for (the host's
	// --timeout); 0: wait forever.
	Timeout time.Duration
	// Window is the answer window of a claim (0: none).
	Window time.Duration
}

// New makes a fresh phone seat for a player: its signing key and card
// keys, made here; the first Put stores them.
func New(name string, opts Options) (*Phone, Effects, error) {
	seed := make([]byte, ed25519.SeedSize)
	salt := make([]byte, 32)
	if _, err := rand.Read(seed); err != nil {
		return nil, Effects{}, err
	}
	if _, err := rand.Read(salt); err != nil {
		return nil, Effects{}, err
	}
	sec, err := table.GenerateSeatSecrets().MarshalBinary()
	if err != nil {
		return nil, Effects{}, err
	}
	m := me{Name: name, Seed: seed, Secrets: sec, Salt: salt}
	p, err := fromMe(m, opts)
	if err != nil {
		return nil, Effects{}, err
	}
	raw, _ := json.Marshal(m)
	return p, Effects{Puts: []Put{{Key: "me", Value: raw}}}, nil
}

func fromMe(m me, opts Options) (*Phone, error) {
	if len(m.Seed) != ed25519.SeedSize || len(m.Salt) != 32 {
		return nil, errors.New("phoneseat: stored keys damaged")
	}
	sec, err := table.UnmarshalSeatSecrets(m.Secrets)
	if err != nil {
		return nil, fmt.Errorf("phoneseat: stored card keys: %w", err)
	}
	return &Phone{me: m, sign: ed25519.NewKeyFromSeed(m.Seed), secrets: sec, games: registry.All(),
		ctl: seatview.NewController(), timeout: opts.Timeout, window: opts.Window, status: "connecting"}, nil
}

// Restore reads a phone back from its stored records (a reload): its
// keys, and, once it was seated, its table and the entries it held,
// replayed and checked again.
func Restore(kv map[string][]byte, opts Options) (*Phone, error) {
	var m me
	if err := json.Unmarshal(kv["me"], &m); err != nil {
		return nil, fmt.Errorf("phoneseat: stored keys: %w", err)
	}
	p, err := fromMe(m, opts)
	if err != nil {
		return nil, err
	}
	raw := kv["table"]
	if raw == nil {
		return p, nil
	}
	var st seated
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("phoneseat: stored table: %w", err)
	}
	var keys []string
	for k := range kv {
		if strings.HasPrefix(k, "e/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var stored []*ledger.Entry
	for _, k := range keys {
		e, err := ledger.UnmarshalEntry(kv[k])
		if err != nil {
			return nil, fmt.Errorf("phoneseat: stored entry %s: %w", k, err)
		}
		stored = append(stored, e)
	}
	bits := map[uint64][]bool{}
	if raw := kv["bits"]; raw != nil {
		if err := json.Unmarshal(raw, &bits); err != nil {
			return nil, fmt.Errorf("phoneseat: stored swap bits: %w", err)
		}
	}
	checks := map[uint64]engine.Seat{}
	if raw := kv["checks"]; raw != nil {
		if err := json.Unmarshal(raw, &checks); err != nil {
			return nil, fmt.Errorf("phoneseat: stored night checks: %w", err)
		}
	}
	// The secrets of the seat's ballots (a plurality kill's count lookup
	// is proven from its kill ballot's, mental SPEC §9.9).
	var ballots [][]byte
	if raw := kv["ballots"]; raw != nil {
		if err := json.Unmarshal(raw, &ballots); err != nil {
			return nil, fmt.Errorf("phoneseat: stored ballot secrets: %w", err)
		}
	}
	var shuffles []table.LoneShuffle
	if raw := kv["shuffles"]; raw != nil {
		if err := json.Unmarshal(raw, &shuffles); err != nil {
			return nil, fmt.Errorf("phoneseat: stored shuffles: %w", err)
		}
	}
	if raw := kv["chatseq"]; len(raw) == 4 {
		p.chat.nextSeq = binary.BigEndian.Uint32(raw)
	}
	if raw := kv["wait"]; raw != nil {
		// Only the countdown depends on it: a damaged record is ignored.
		_ = json.Unmarshal(raw, &p.waitMark)
	}
	p.restored = restored{checks: checks, shuffles: shuffles, ballots: ballots}
	p.leaving = kv[leaveKey] != nil
	if err := p.startTable(st, stored, kv["signed"] != nil, bits); err != nil {
		return nil, err
	}
	p.restoreChat(kv)
	// A verdict stored here ended the table: checked again (its
	// signature and evidence against the replayed log), it is the run's
	// outcome.
	out, err := p.rs.CheckStored(kv["verdict"])
	if err != nil {
		return nil, fmt.Errorf("phoneseat: the stored verdict is refused (the storage was altered or damaged): %w", err)
	}
	if out != nil {
		p.outcome, p.status = out, "the table stopped: "+out.Verdict.Reason
	}
	return p, nil
}

// SetToken sets the table's token (the page's URL fragment), sent in
// the hello.
func (p *Phone) SetToken(token string) { p.token = token }

// SetCode sets the table's join code the page's address names (its
// fragment before the token, as the serving machine printed it beside
// its QR code): the phone then signs only a roster of that table, its
// creator's (lobby.Code of its table id and seat 0's peer id). Empty (an
// address without the code, only the key): the phone signs no roster,
// since it could not tell its table from any other the serving machine
// names.
func (p *Phone) SetCode(code string) { p.code = normalCode(code) }

// ErrNoCode is the refusal of a roster by a phone whose page's address
// names no table's code (only the serving machine's key).
var ErrNoCode = errors.New("this page's address names no table's code (the link masque prints is …/#CODE-KEY): a phone signs only the table its link names; open the whole link or scan the QR code again")

// joinCodeDomain and joinCodeChars are package lobby's (codeDomain,
// CodeChars), written again here so that the seat's WebAssembly does
// not pull in lobby's network code; TestTableCode holds them equal.
const (
	joinCodeDomain = "masque/lobby/join-code/v1\x00"
	joinCodeChars  = 12
	crockford      = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
)

// tableCode is lobby.Code(id, creator) without its dashes.
func tableCode(id [16]byte, creator []byte) string {
	h := sha256.New()
	h.Write([]byte(joinCodeDomain))
	h.Write(id[:])
	h.Write(creator)
	v := binary.BigEndian.Uint64(h.Sum(nil)[:8]) >> (64 - 5*joinCodeChars)
	out := make([]byte, joinCodeChars)
	for i := joinCodeChars - 1; i >= 0; i-- {
		out[i] = crockford[v&31]
		v >>= 5
	}
	return string(out)
}

// normalCode is a join code without dashes or spaces, in capitals.
func normalCode(code string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
}

// restored is what a reload brings back beside the entries, given to the
// player before the replay (startTable).
type restored struct {
	checks   map[uint64]engine.Seat
	shuffles []table.LoneShuffle
	ballots  [][]byte
}

// Key is the phone's public signing key.
func (p *Phone) Key() ed25519.PublicKey { return p.sign.Public().(ed25519.PublicKey) }

// Name is the player's name.
func (p *Phone) Name() string { return p.me.Name }

// Seated says whether the phone holds a seat at a table (it plays, or
// played).
func (p *Phone) Seated() bool { return p.rs != nil }

// OnControl takes a control message from the server.
func (p *Phone) OnControl(now time.Time, c Control) (Effects, error) {
	switch c.T {
	case "challenge":
		h := Control{T: "hello", Token: p.token, Name: p.me.Name, Key: p.Key(),
			Sig: ed25519.Sign(p.sign, append([]byte(HelloContext), c.Nonce...))}
		if p.roster != nil {
			gid, _ := p.roster.GameID()
			h.Game = gid[:]
		}
		p.status = "asking for a seat"
		if p.roster != nil {
			p.status = "reconnecting to your seat"
		}
		return Effects{Control: []Control{h}}, nil
	case "table", "refused", "seated", "offer":
		if p.rs != nil {
			// Seating is over here: a seat, a table id or a roster now
			// would make the page draw another seat as this player's, or
			// sign a roster for another table.
			return Effects{}, fmt.Errorf("phoneseat: %q message refused: this phone holds seat %d of a started table", c.T, p.seat)
		}
		return p.onSeating(c)
	case "start":
		if p.over() {
			return Effects{}, nil
		}
		if p.rs != nil && p.started {
			// A reconnection: the table goes on where this seat is.
			return p.resume(now), nil
		}
		if p.rs != nil {
			// A seat restored from storage (a reload): its run starts.
			return p.begin(now), nil
		}
		st := seated{Seat: p.seat, Roster: c.Roster, Addrs: c.Addrs, Sigs: c.Sigs,
			Timeout: time.Duration(c.TimeoutMS) * time.Millisecond, Window: time.Duration(c.WindowMS) * time.Millisecond}
		// The table taken is the one the page's address names, as the
		// roster signed is (checkOffer): a page reloaded since it signed
		// has no offer to compare with, and its signing key is its
		// storage's, the serving machine's key's, whatever code the
		// address now names.
		if err := p.checkStartCode(c.Roster); err != nil {
			p.status = "table refused: " + err.Error()
			return Effects{}, err
		}
		if err := p.startTable(st, nil, false, nil); err != nil {
			p.status = "table refused: " + err.Error()
			return Effects{}, err
		}
		raw, _ := json.Marshal(st)
		e := Effects{Puts: []Put{{Key: "table", Value: raw}}}
		e.add(p.begin(now))
		return e, nil
	case "chat":
		return p.onChat(c.Chat)
	case "error":
		p.status = "the server says: " + c.Reason
		return Effects{}, errors.New(p.status)
	}
	return Effects{}, fmt.Errorf("phoneseat: unknown control message %q", c.T)
}

// onSeating takes a seating message (before the table started here).
func (p *Phone) onSeating(c Control) (Effects, error) {
	if c.T != "offer" && !(c.T == "refused" && c.Seat == 0) && (c.Seat <= 0 || c.Seat >= ledger.MaxSeats) {
		return Effects{}, fmt.Errorf("phoneseat: %q message for seat %d: a phone takes a seat from 1 to %d", c.T, c.Seat, ledger.MaxSeats-1)
	}
	switch c.T {
	case "table", "refused":
		if c.T == "refused" && c.Seat == 0 {
			p.status = "refused: " + c.Reason
			return Effects{}, errors.New(p.status)
		}
		if c.T == "table" {
			if len(c.ID) != 16 {
				return Effects{}, errors.New("phoneseat: table id of the wrong size")
			}
			copy(p.tableID[:], c.ID)
		}
		p.seat = c.Seat
		card := p.secrets.PublicKeys(p.tableID, p.seat, p.peerID())
		p.status = fmt.Sprintf("asking for seat %d", p.seat)
		return Effects{Control: []Control{{T: "join", Seat: p.seat, Card: card}}}, nil
	case "seated":
		p.seat = c.Seat
		p.status = fmt.Sprintf("seated (seat %d): waiting for the table to fill", p.seat)
		return Effects{}, nil
	case "offer":
		sig, err := p.checkOffer(c)
		if err != nil {
			p.status = "roster refused: " + err.Error()
			return Effects{}, err
		}
		p.status = "roster signed: waiting for the other seats"
		return Effects{Control: []Control{{T: "sign", Sig: sig}}}, nil
	}
	return Effects{}, fmt.Errorf("phoneseat: unknown seating message %q", c.T)
}

// checkOffer checks the roster offered: this phone's seat in it is its
// own (name, keys, path), the game is one this phone plays by its rules,
// and signs it.
func (p *Phone) checkOffer(c Control) ([]byte, error) {
	r, err := ledger.UnmarshalRoster(c.Roster)
	if err != nil {
		return nil, err
	}
	if r.TableID != p.tableID {
		return nil, errors.New("the roster is for another table")
	}
	// The table id came from the serving machine: the join code in the
	// page's address binds it, with its creator, to the table the player
	// was shown (a forwarder could otherwise seat the phone at a table of
	// its own choosing).
	// Without a code the phone could not tell its table from any other:
	// it signs nothing (the first version signed any table the server
	// named).
	if p.code == "" {
		return nil, ErrNoCode
	}
	if len(r.Seats) == 0 {
		return nil, errors.New("the roster has no seats")
	}
	if tableCode(r.TableID, r.Seats[0].PeerID) != p.code {
		return nil, fmt.Errorf("the roster is of the table %s, not of the table %s this page's address names", tableCode(r.TableID, r.Seats[0].PeerID), p.code)
	}
	if p.seat <= 0 || p.seat >= len(r.Seats) || len(c.Addrs) != len(r.Seats) {
		return nil, fmt.Errorf("seat %d of a %d-seat roster", p.seat, len(r.Seats))
	}
	s := r.Seats[p.seat]
	if s.Name != p.me.Name || string(s.SignKey) != string(p.Key()) || string(s.PeerID) != string(p.peerID()) {
		return nil, fmt.Errorf("seat %d is not this phone's", p.seat)
	}
	// Its card keys must be the ones made here: keys the host knows,
	// with proofs of its own, would open this phone's cards.
	pub, err := table.VerifySeatKeys(r.TableID, p.seat, s)
	if err != nil {
		return nil, fmt.Errorf("seat %d's card keys are not this phone's: %w", p.seat, err)
	}
	if pub.Card.X.Equal(p.secrets.Card.Public()) != 1 || pub.View.X.Equal(p.secrets.View.Public()) != 1 {
		return nil, fmt.Errorf("seat %d's card keys are not this phone's", p.seat)
	}
	for i, si := range r.Seats {
		if _, err := table.VerifySeatKeys(r.TableID, i, si); err != nil {
			return nil, fmt.Errorf("seat %d (%s): %w", i, si.Name, err)
		}
	}
	if _, err := games.Lookup(p.games, r.Game); err != nil {
		return nil, err
	}
	gid, err := r.GameID()
	if err != nil {
		return nil, err
	}
	p.offer = r
	return ed25519.Sign(p.sign, ledger.RosterSigningBytes(gid)), nil
}

// checkStartCode checks that a roster the table starts with is of the
// table whose code the page's address names.
func (p *Phone) checkStartCode(raw []byte) error {
	r, err := ledger.UnmarshalRoster(raw)
	if err != nil {
		return err
	}
	if p.code == "" {
		return ErrNoCode
	}
	if len(r.Seats) == 0 {
		return errors.New("the roster has no seats")
	}
	if got := tableCode(r.TableID, r.Seats[0].PeerID); got != p.code {
		return fmt.Errorf("the roster is of the table %s, not of the table %s this page's address names", got, p.code)
	}
	return nil
}

// startTable checks the signed table and makes the seat's replica,
// replaying the stored entries.
func (p *Phone) startTable(st seated, stored []*ledger.Entry, signed bool, bits map[uint64][]bool) error {
	r, err := ledger.UnmarshalRoster(st.Roster)
	if err != nil {
		return err
	}
	if p.offer != nil {
		a, _ := p.offer.GameID()
		b, _ := r.GameID()
		if a != b {
			return errors.New("the table started with another roster than the one this phone signed")
		}
	}
	gid, err := r.GameID()
	if err != nil {
		return err
	}
	if len(st.Sigs) != len(r.Seats) || st.Seat <= 0 || st.Seat >= len(r.Seats) {
		return errors.New("the table's signatures do not match its roster")
	}
	var sigs [][ed25519.SignatureSize]byte
	for i, s := range r.Seats {
		if len(st.Sigs[i]) != ed25519.SignatureSize || !ed25519.Verify(s.SignKey, ledger.RosterSigningBytes(gid), st.Sigs[i]) {
			return fmt.Errorf("seat %d (%s): bad roster signature", i, s.Name)
		}
		sigs = append(sigs, [ed25519.SignatureSize]byte(st.Sigs[i]))
	}
	if string(r.Seats[st.Seat].SignKey) != string(p.Key()) {
		return fmt.Errorf("seat %d is not this phone's", st.Seat)
	}
	g, err := games.Lookup(p.games, r.Game)
	if err != nil {
		return err
	}
	tab, err := table.New(r, g.Table())
	if err != nil {
		return err
	}
	p.roster, p.sigs, p.game, p.tab, p.seat, p.tableID = r, sigs, g, tab, st.Seat, r.TableID
	if st.Timeout > 0 {
		p.timeout = st.Timeout
	}
	if st.Window > 0 {
		p.window = st.Window
	}
	p.player = table.NewPlayer(st.Seat, p.sign, p.secrets)
	for pos, b := range bits {
		p.player.RememberSwapBits(pos, b)
	}
	for pos, target := range p.restored.checks {
		p.player.RememberCheckTarget(pos, target)
	}
	for _, b := range p.restored.ballots {
		p.player.RememberBallotSecret(b)
	}
	for _, ls := range p.restored.shuffles {
		p.player.RememberShuffle(ls)
	}
	p.narr = g.Viewer().Narrator(engine.Seat(st.Seat))
	p.narr.Start(tab)
	rs, err := remoteseat.New(roomcore.Config{Roster: r, Self: uint8(st.Seat), SignKey: p.sign,
		Replica: replica{p}, Timeout: p.timeout, Signed: signed}, stored)
	if err != nil {
		return err
	}
	p.rs, p.saved = rs, len(stored)
	p.status = "" // playing: the table says the rest
	return nil
}

// begin starts the run.
func (p *Phone) begin(now time.Time) Effects {
	p.started, p.status = true, ""
	return p.carry(now, p.rs.Start(now))
}

// resume is a reconnection's start: every seat is asked for what this
// one missed (a tick syncs a stalled position).
func (p *Phone) resume(now time.Time) Effects {
	p.status = ""
	return p.carry(now, p.rs.Tick(now))
}

// OnPacket takes a sealed frame the server forwarded.
func (p *Phone) OnPacket(now time.Time, sealed []byte) Effects {
	if p.rs == nil || p.over() {
		return Effects{}
	}
	o, _ := p.rs.Receive(now, sealed)
	return p.carry(now, o)
}

// Tick is the clock (every 500 ms): the core's timers and the answer
// window.
func (p *Phone) Tick(now time.Time) Effects {
	if p.rs == nil || p.over() {
		return Effects{}
	}
	e := p.carry(now, p.rs.Tick(now))
	if a, ok := p.ctl.Tick(now); ok {
		e.add(p.play(now, a))
	}
	if p.night && p.myTurn && len(p.decisions()) == 0 && now.Sub(p.nightSince) >= floorDelay(NightFloor, p.authorAt, p.me.Secrets) {
		// A seat holding no power posts by itself after the night's
		// floor, unless its player slept first.
		s := &submitter{p: p, now: now}
		if err := s.postNight(); err == nil {
			e.add(s.eff)
		}
	}
	return e
}

// NightFloor is session.NightFloor: the least time a seat without a
// power takes to post its night actions by itself.
const NightFloor = 4 * time.Second

// floorDelay is a night's delay for a seat without a power: between
// floor and twice it, drawn from the seat's secrets and the position
// (as netsession's), so that a reloaded seat waits as long.
func floorDelay(floor time.Duration, pos uint64, secrets []byte) time.Duration {
	h := sha256.New()
	h.Write([]byte("masque night floor"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], pos)
	h.Write(b[:])
	h.Write(secrets)
	r := binary.BigEndian.Uint64(h.Sum(nil))
	return floor + time.Duration(r%uint64(floor))
}

// decisions are the night's choices still to make.
func (p *Phone) decisions() []engine.Effect {
	if !p.night {
		return nil
	}
	var out []engine.Effect
	for _, dc := range p.player.Decisions(p.tab) {
		if _, done := p.chosen[dc.Power]; !done {
			out = append(out, dc)
		}
	}
	return out
}

// Timer steps a timer an Effects asked for.
func (p *Phone) Timer(now time.Time, t roomcore.Timer) Effects {
	if p.rs == nil || p.over() {
		return Effects{}
	}
	return p.carry(now, p.rs.Timer(now, t))
}

func (p *Phone) over() bool { return p.outcome != nil || p.endErr != nil }

// carry carries out an Out: entries stored, packets sent, the author
// asked.
func (p *Phone) carry(now time.Time, o remoteseat.Out) Effects {
	var e Effects
	p.now = now
	for {
		e.Puts = append(e.Puts, p.pendingPuts...)
		p.pendingPuts = nil
		if o.MarkSigned {
			e.Puts = append(e.Puts, Put{Key: "signed", Value: []byte{1}})
		}
		for _, en := range o.Entries {
			raw, err := en.MarshalBinary()
			if err == nil {
				e.Puts = append(e.Puts, Put{Key: fmt.Sprintf("e/%08d", en.Pos), Value: raw})
				p.saved++
			}
		}
		if o.Save != nil {
			e.Puts = append(e.Puts, Put{Key: "verdict", Value: o.Save})
		}
		for _, pk := range o.Packets {
			e.Packets = append(e.Packets, pk.Bytes())
		}
		e.Timers = append(e.Timers, o.Timers...)
		for _, w := range o.Waits {
			p.waitName, p.waitLeft, p.waitSeat, p.waitPos = "", w.Left, int(w.Seat), w.Pos
			if !w.Local && int(w.Seat) < len(p.roster.Seats) {
				p.waitName = p.roster.Seats[w.Seat].Name
			}
			if put, ok := p.markWait(now, w); ok {
				e.Puts = append(e.Puts, put)
			}
		}
		if o.StopAuthor {
			p.author, p.myTurn, p.night = false, false, false
		}
		if o.Err != nil {
			p.endErr = o.Err
			p.status = "stopped: " + o.Err.Error()
		}
		if o.Outcome != nil {
			p.outcome = o.Outcome
			p.status = "" // the heading says "game over"
			if v := o.Outcome.Verdict; v != nil {
				p.status = "the table stopped: " + v.Reason
			}
		}
		if o.Author {
			p.author, p.authorAt = true, o.AuthorPos
		}
		if !p.author || p.myTurn || p.over() {
			break
		}
		// An automatic entry (the deal's coin, shares, a key) is
		// written at once; a move waits for the player.
		next, ok := p.autoEntry(now)
		if !ok {
			break
		}
		o = next
	}
	p.offerChoices(now)
	return e
}

// markWait sets the deadline of wait w, which the core reports at now:
// from when this seat began waiting at its position, which a reload
// keeps (the stored mark of the same position, if earlier), so that the
// page's countdown goes on where it was. It returns the mark to store
// when the position is a new one.
func (p *Phone) markWait(now time.Time, w roomcore.Wait) (Put, bool) {
	since := now.Add(-w.Waited)
	m := p.waitMark
	kept := m.Pos == w.Pos && m.Since != 0
	if t := time.UnixMilli(m.Since); kept && t.Before(since) && !t.After(now) {
		since = t // waited for before the reload: the clock goes on
	}
	p.waitUntil = time.Time{}
	if w.Left > 0 {
		p.waitUntil = since.Add(w.Left + w.Waited)
	}
	if kept {
		return Put{}, false
	}
	p.waitMark = waitMark{Pos: w.Pos, Since: since.UnixMilli()}
	raw, _ := json.Marshal(p.waitMark)
	return Put{Key: "wait", Value: raw}, true
}

// left is the time left to the wait's deadline at the last step (0: no
// limit; at least 1 ms while there is one).
func (p *Phone) left() time.Duration {
	if p.waitUntil.IsZero() {
		return 0
	}
	return max(time.Millisecond, p.waitUntil.Sub(p.now))
}

// autoEntry writes the entry the table waits for from this seat when
// it is not the player's to choose.
func (p *Phone) autoEntry(now time.Time) (remoteseat.Out, bool) {
	pos := p.authorAt
	if p.tab.Pos() != pos {
		return remoteseat.Out{}, false
	}
	if _, kind, ok := p.tab.Expect(); ok && (kind == table.BodyMove || kind == table.BodyActions) {
		if p.leaving {
			if _, ok, _ := p.leavingEntry(kind); ok {
				return p.leavingOut(now), true
			}
		}
		p.myTurn = true
		if kind == table.BodyActions {
			p.night, p.nightSince, p.chosen = true, now, map[uint8]engine.Seat{}
		}
		return remoteseat.Out{}, false
	}
	p.author = false
	b, auto, err := p.player.AutoBody(p.tab)
	if err == nil && !auto {
		err = fmt.Errorf("entry %d is not this seat's to write", pos)
	}
	var puts []Put
	if err == nil {
		// A shuffle of this seat's hidden hand is kept before it
		// leaves: a reload still knows where its cards went.
		if ls, ok, serr := p.player.PendingShuffle(p.tab); serr != nil {
			err = serr
		} else if ok {
			p.restored.shuffles = append(p.restored.shuffles, ls)
			raw, _ := json.Marshal(p.restored.shuffles)
			puts = append(puts, Put{Key: "shuffles", Value: raw})
		}
	}
	var body []byte
	if err == nil {
		body, err = b.MarshalBinary()
	}
	o := p.rs.Authored(now, pos, body, err)
	p.pendingPuts = append(p.pendingPuts, puts...)
	return o, true
}

// offerChoices gives the controller the question the seat must answer,
// asked since this seat began waiting at its position (the stored mark:
// a reloaded page's answer window counts down what is left of it, not
// a whole window again).
func (p *Phone) offerChoices(now time.Time) {
	var q *seatview.Question
	if t := p.view(); t != nil && p.myTurn {
		q = t.Question
	}
	since := now
	if m := p.waitMark; m.Pos == p.tab.Pos() && m.Since != 0 {
		if t := time.UnixMilli(m.Since); t.Before(now) {
			since = t
		}
	}
	p.ctl.Offer(q, int(p.tab.Pos()), since, p.window)
}

// Pick takes the player's tap on line j of the menu (a step, or a
// choice); a choice that asks a confirmation waits for [Phone.Answer].
func (p *Phone) Pick(now time.Time, j int) (Effects, error) {
	if p.rs == nil || !p.myTurn {
		return Effects{}, errors.New("it is not your move")
	}
	a, ok := p.ctl.Pick(j)
	if !ok {
		return Effects{}, nil
	}
	return p.play(now, a), nil
}

// Answer answers the confirmation the menu asks (seatview.Yes or No; ""
// goes back).
func (p *Phone) Answer(now time.Time, answer string) (Effects, error) {
	if p.rs == nil || !p.myTurn {
		return Effects{}, errors.New("it is not your move")
	}
	a, ok := p.ctl.Answer(answer)
	if !ok {
		return Effects{}, nil
	}
	return p.play(now, a), nil
}

// Back goes back one step in the menu.
func (p *Phone) Back() { p.ctl.Back() }

// play plays the controller's action: the move's entry is made, its
// secret bits stored, and it goes to the core.
func (p *Phone) play(now time.Time, a seatview.Action) Effects {
	var e Effects
	s := &submitter{p: p, now: now}
	err := a.Run(s)
	p.ctl.Done(a, err)
	if err != nil {
		p.status = "refused: " + err.Error()
		return e
	}
	e.add(s.eff)
	return e
}

// submitter is the seat's seatview.Session: Submit makes the move's entry.
type submitter struct {
	p   *Phone
	now time.Time
	eff Effects
}

func (s *submitter) Submit(m engine.Move, swaps []bool) error {
	p := s.p
	if !p.myTurn || !p.author {
		return errors.New("it is not your move")
	}
	m.Seat = engine.Seat(p.seat)
	body, err := p.player.MoveBody(p.tab, m, swaps)
	if err != nil {
		return err
	}
	enc, err := body.MarshalBinary()
	if err != nil {
		return err
	}
	if len(swaps) > 0 {
		p.player.RememberSwapBits(p.tab.Pos(), swaps)
		raw, _ := json.Marshal(p.player.SwapBits())
		// Kept before the move leaves: a reload still knows its swap.
		s.eff.Puts = append(s.eff.Puts, Put{Key: "bits", Value: raw})
	}
	p.myTurn, p.author = false, false
	s.eff.add(p.carry(s.now, p.rs.Authored(s.now, p.authorAt, enc, nil)))
	return nil
}

// Decide records the target of one of the seat's night powers; once
// every power has one, the seat posts its night actions.
func (s *submitter) Decide(power uint8, target engine.Seat) error {
	p := s.p
	if !p.night || !p.myTurn {
		return errors.New("the table does not ask for your night choice now")
	}
	ds := p.player.Decisions(p.tab)
	i := slices.IndexFunc(ds, func(e engine.Effect) bool { return e.Power == power })
	if i < 0 {
		return errors.New("you hold no such power now")
	}
	if !slices.Contains(ds[i].Targets, target) {
		return errors.New("not a target you may choose")
	}
	p.chosen[power] = target
	if len(p.decisions()) > 0 {
		return nil
	}
	return s.postNight()
}

// Sleep lets a seat without a power post its night actions now.
func (s *submitter) Sleep() error {
	p := s.p
	if !p.night || !p.myTurn {
		return errors.New("the table does not ask for your night actions now")
	}
	if len(p.player.Decisions(p.tab)) > 0 {
		return errors.New("you must choose first")
	}
	return s.postNight()
}

// postNight makes the night actions' entry (whom the seat checks kept
// first) and hands it to the core.
func (s *submitter) postNight() error {
	p := s.p
	pos := p.tab.Pos()
	body, err := p.player.ActionsBody(p.tab, p.chosen)
	if err != nil {
		clear(p.chosen)
		return fmt.Errorf("night actions: %w", err)
	}
	if _, ok := p.player.CheckTargets()[pos]; ok {
		raw, _ := json.Marshal(p.player.CheckTargets())
		s.eff.Puts = append(s.eff.Puts, Put{Key: "checks", Value: raw})
	}
	// The ballots' secrets, kept before the entry leaves (a count lookup
	// after a reload needs the kill ballot's).
	raw, _ := json.Marshal(p.player.BallotSecrets())
	s.eff.Puts = append(s.eff.Puts, Put{Key: "ballots", Value: raw})
	enc, err := body.MarshalBinary()
	if err != nil {
		return err
	}
	p.myTurn, p.night, p.author = false, false, false
	s.eff.add(p.carry(s.now, p.rs.Authored(s.now, p.authorAt, enc, nil)))
	return nil
}

// replica is the seat's roomcore.Replica: the table's rules, then what
// the seat saw and the narration.
type replica struct{ p *Phone }

func (r replica) Next() (uint64, uint8, bool) { return r.p.tab.Next() }
func (r replica) StateHash() ledger.Hash      { return r.p.tab.StateHash() }
func (r replica) Retired(seat uint8) bool     { return r.p.tab.Retired(int(seat)) }
func (r replica) Apply(e *ledger.Entry) error { return r.apply(e, r.p.tab.Apply) }
func (r replica) ApplyVerified(e *ledger.Entry) error {
	return r.apply(e, r.p.tab.ApplyVerified)
}

func (r replica) apply(e *ledger.Entry, f func(*ledger.Entry) error) error {
	p := r.p
	if err := f(e); err != nil {
		return err
	}
	if p.failure == nil {
		if err := p.player.Observe(p.tab); err != nil {
			p.failure = fmt.Errorf("after entry %d: %w", e.Pos, err)
		} else if _, err := p.narr.Follow(p.tab, e); err != nil {
			p.failure = fmt.Errorf("after entry %d: %w", e.Pos, err)
		}
	}
	return nil
}

// peerID is the phone's peer id, in bytes: the identity of its own
// signing key as libp2p makes it (an identity multihash of the key's
// protobuf encoding), written here so that the seat carries no libp2p.
func (p *Phone) peerID() []byte { return PeerID(p.Key()) }

// PeerID is the libp2p peer id of an Ed25519 public key, in bytes:
// multihash identity (0x00), length 36, then the key's protobuf
// encoding (field 1 KeyType = 1, Ed25519; field 2 Data, 32 bytes).
func PeerID(pub ed25519.PublicKey) []byte {
	return append([]byte{0x00, 0x24, 0x08, 0x01, 0x12, 0x20}, pub...)
}

// view is the seat's view of the table now, or nil before the deal.
func (p *Phone) view() *seatview.Table {
	if p.tab == nil || p.tab.Rules() == nil {
		return nil
	}
	var names []string
	for _, s := range p.roster.Seats {
		names = append(names, s.Name)
	}
	_, kind, ok := p.tab.Expect()
	_, _, more := p.tab.Next()
	in := seatview.Input{Rules: p.tab.Rules(), Seat: engine.Seat(p.seat), Names: names,
		Known: p.player.Known(p.tab), Opened: p.tab.Opened(), Memory: p.player.Memory, Log: p.narr.Lines(),
		Record: p.narr.Record(), SwapBits: p.player.SwapBits(), MyTurn: p.myTurn, Over: !more,
		TableNight: ok && kind == table.BodyActions, Night: p.night, Decisions: p.decisions()}
	if kn, ok := p.game.Table().(games.Knower); ok {
		in.Private = kn.Knowledge(in.Rules, p.player, p.tab)
	}
	copy(in.Salt[:], p.me.Salt)
	t, ok := seatview.Build(p.game.Viewer(), in)
	if !ok {
		return nil
	}
	return &t
}

// MenuLine is a line of the menu of choices.
type MenuLine struct {
	Label string `json:"label"`
	Step  bool   `json:"step,omitempty"`
	Count int    `json:"count,omitempty"`
}

// Page is what the page draws: the seat's view of the table (the same
// view model as the --web page's), its menu of choices and its state.
type Page struct {
	Status  string          `json:"status"`
	Name    string          `json:"name"`
	Seat    int             `json:"seat"`
	Table   *seatview.Table `json:"table,omitempty"`
	Menu    []MenuLine      `json:"menu,omitempty"`
	Path    []string        `json:"path,omitempty"`
	Asking  string          `json:"asking,omitempty"` // the confirmation asked, after the move's words
	Yes     string          `json:"yes,omitempty"`    // the answers' labels ("Yes, really"), "" for a plain yes
	No      string          `json:"no,omitempty"`
	MyTurn  bool            `json:"myTurn,omitempty"`
	Waiting string          `json:"waiting,omitempty"`
	// LeftMS is the time left (ms) to the seat waited for (Waiting), or
	// on the seat's own move (MyTurn) to this seat, at the seat's last
	// step; 0 when unlimited. UntilMS is that deadline (Unix ms), which
	// the page counts down to.
	LeftMS  int64 `json:"leftMs,omitempty"`
	UntilMS int64 `json:"untilMs,omitempty"`
	// WindowUntilMS is when the seat's open answer window (a claim to
	// answer) runs out and the seat passes by itself (Unix ms; 0: none
	// open): the page counts down to it rather than to the move's time,
	// as the terminal's "(29s left, then you pass)".
	WindowUntilMS int64    `json:"windowUntilMs,omitempty"`
	Entries       int      `json:"entries"`
	Over          bool     `json:"over,omitempty"`
	Faults        []string `json:"faults,omitempty"`
	// Chat are the table chat's last messages (MaxChatShown); MayChat
	// says whether this seat may write now.
	Chat    []ChatLine `json:"chat,omitempty"`
	MayChat bool       `json:"mayChat,omitempty"`
	ChatErr string     `json:"chatErr,omitempty"` // why the player's last line was refused
	// CanLeave: the player may leave the game for good now (Mafia);
	// Leaving: it asked, and is out at its next move; Left: it is out
	// (its card key published), the page follows the table read-only.
	CanLeave bool `json:"canLeave,omitempty"`
	Leaving  bool `json:"leaving,omitempty"`
	Left     bool `json:"left,omitempty"`
}

// View is the page's state now.
func (p *Phone) View() Page {
	pg := Page{Status: p.status, Name: p.me.Name, Seat: p.seat, MyTurn: p.myTurn, Over: p.over()}
	if p.tab == nil {
		return pg
	}
	pg.Entries = int(p.tab.Pos())
	pg.Table = p.view()
	pg.Chat = p.chatLines()
	// Once the game is over here the seat stops soon after (as a seat's
	// process does): a line written then would go nowhere.
	pg.MayChat = p.rs != nil && !pg.Over && (pg.Table == nil || !pg.Table.Over) && p.mayChat(engine.Seat(p.seat))
	pg.ChatErr = p.chat.err
	pg.CanLeave = p.CanLeave()
	if p.leaving {
		pg.Left = p.tab.Retired(p.seat)
		pg.Leaving = !pg.Left
	}
	if p.myTurn {
		items, path := p.ctl.Menu()
		for _, it := range items {
			pg.Menu = append(pg.Menu, MenuLine{Label: it.Label, Step: it.Choice < 0, Count: it.Count})
		}
		pg.Path = path
		if a := p.ctl.Asking(); a != nil {
			pg.Asking = a.Confirm
			if pg.Asking == "" {
				pg.Asking = "really?"
			}
			// The move the question is about, as the terminal asks it.
			if a.Words != "" {
				pg.Asking = a.Words + ": " + pg.Asking
			}
			pg.Yes, pg.No = a.Yes, a.No
		}
		if p.waitName == "" && p.waitLeft > 0 {
			// The seat's own move: the time it has left.
			pg.LeftMS, pg.UntilMS = p.left().Milliseconds(), p.waitUntil.UnixMilli()
		}
		if deadline, ok := p.ctl.Window(); ok {
			pg.WindowUntilMS = deadline.UnixMilli()
		}
	}
	if pg.Table != nil && pg.Table.Over && p.endErr == nil && (p.outcome == nil || p.outcome.Verdict == nil) {
		// The game is over on this replica; the seats are still saying
		// so to each other (the done exchange); the heading says "game
		// over", the status line nothing more.
		pg.Status = ""
	}
	if !p.myTurn && p.waitName != "" && !pg.Over && (pg.Table == nil || !pg.Table.Over) {
		pg.Waiting = p.waitWhat(pg.Table)
		if p.waitLeft > 0 {
			pg.LeftMS, pg.UntilMS = p.left().Milliseconds(), p.waitUntil.UnixMilli()
		}
		if win, ok := othersWindow(pg.Table, p.waitMark, p.waitPos, p.window, p.now); ok {
			// A claim's answerer: its screen passes for it when its
			// answer window runs out, long before the table's timeout.
			pg.LeftMS, pg.UntilMS = win.Sub(p.now).Milliseconds(), win.UnixMilli()
		}
	}
	if p.rs != nil {
		for _, f := range p.rs.Faults {
			pg.Faults = append(pg.Faults, f.Error())
		}
	}
	if p.failure != nil {
		pg.Status = "this seat cannot follow the game: " + p.failure.Error()
	}
	return pg
}

// othersWindow returns when the answer window of the seat the table
// waits for at position pos runs out, if it answers a claim (t shows
// another seat's answer window) and the window is still open at now;
// mark is when this seat began waiting, window the table's answer
// window.
func othersWindow(t *seatview.Table, mark waitMark, pos uint64, window time.Duration, now time.Time) (time.Time, bool) {
	if t == nil || mark.Pos != pos || mark.Since == 0 {
		return time.Time{}, false
	}
	win, ok := seatview.OthersWindow(*t, time.UnixMilli(mark.Since), window)
	return win, ok && now.Before(win)
}

// waitWhat is whom the table waits for, with what when it is not a move
// of the game's but the table's own work (a shuffle, a share that opens
// a card, a share of a coin toss, a card key): "bob's shuffle". Without
// it the page said "waiting for bob" under "alice's turn" while bob
// shuffled for alice's deal.
//
// A seat that answers on another's turn (a claim's challenge window, a
// forced response) is "bob's answer": under "alice's turn" the page said
// "waiting for bob", which read as a mistake. t is the seat's view now.
func (p *Phone) waitWhat(t *seatview.Table) string {
	name := p.waitName
	if p.tab != nil && p.tab.Pos() == p.waitPos {
		if seat, kind, ok := p.tab.Expect(); ok && int(seat) == p.waitSeat {
			if w := seatview.WorkWaiting(name, kind); w != "" {
				return w
			}
		}
	}
	if t != nil {
		for _, s := range t.Seats {
			if s.Name == name && s.Answers && !s.You {
				return name + "'s answer"
			}
		}
	}
	return name
}

// Outcome is how the run ended (nil while it goes on), or the error
// that stopped it.
func (p *Phone) Outcome() (*roomcore.Outcome, error) { return p.outcome, p.endErr }

// Transcript is the table's transcript as this seat holds it (for
// masque verify), nil before the table starts.
func (p *Phone) Transcript() ([]byte, error) {
	if p.rs == nil {
		return nil, errors.New("phoneseat: not seated")
	}
	log, _ := p.rs.Core().Log()
	if v := p.rs.Core().Verdict(); v != nil {
		log = log[:roomcore.End(v, len(log))]
	}
	tr := &ledger.Transcript{Roster: p.roster, RosterSigs: p.sigs, Entries: log}
	return tr.MarshalBinary()
}
