package phoneseat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/p2p/chat"
)

// The table chat on a phone (docs/protocol.md §11): the phone signs its
// own messages with its seat's key, as every seat does, and its page's
// server carries them to the table (p2p.Forwarder.Chat: checked there as
// any seat's message is) and the table's messages to it, each checked
// here against its author's key in the roster: the server can drop or
// delay a message, never write or change one.

// MaxChatShown is how many chat messages the page shows (the last ones).
const MaxChatShown = 50

// chatKey is a message's author and sequence number.
type chatKey struct {
	seat uint8
	seq  uint32
}

// chatLog is the phone's share of the table chat.
type chatLog struct {
	msgs    []*chat.Message
	seen    map[chatKey]bool
	count   map[uint8]int // messages kept, by author
	nextSeq uint32        // this seat's next sequence number; kept in "chatseq"
	send    *chat.Limiter
	err     string // why the last message the player wrote was refused
}

// ChatLine is one chat message, for the page.
type ChatLine struct {
	Name string `json:"name"`
	Text string `json:"text"`
	You  bool   `json:"you,omitempty"`
}

// mayChat says whether seat may write now, by the game's rules after the
// last entry (engine.ChatGate: Mafia's dead may read but not write).
func (p *Phone) mayChat(seat engine.Seat) bool {
	if p.tab == nil || p.tab.Rules() == nil {
		return true
	}
	if g, ok := p.tab.Rules().(engine.ChatGate); ok {
		return g.MayChat(seat)
	}
	return true
}

// onChat takes a chat message the server forwarded: kept, shown and
// stored (so that a reloaded page shows it again) if it passes every
// check a seat makes of a message it receives (docs/protocol.md §11.2):
// the table's, signed by its author's key, of a seat the game lets write
// now (Mafia's dead may not), within chat.MaxPerAuthor of its author. The
// server is often a seat of the table itself: without these, its phones
// would show what every other seat refuses. A message seen before is
// ignored. An error says what was wrong with it.
func (p *Phone) onChat(enc []byte) (Effects, error) {
	m, err := p.checkChat(enc)
	if err != nil {
		return Effects{}, err
	}
	if p.chat.seen[chatKey{m.Seat, m.Seq}] {
		return Effects{}, nil
	}
	name := p.roster.Seats[m.Seat].Name
	if !p.mayChat(engine.Seat(m.Seat)) {
		return Effects{}, fmt.Errorf("phoneseat: refused: seat %d (%s) may not write now: message %d", m.Seat, name, m.Seq)
	}
	if p.chat.count[m.Seat] >= chat.MaxPerAuthor {
		return Effects{}, fmt.Errorf("phoneseat: refused: seat %d (%s) sent more than %d messages", m.Seat, name, chat.MaxPerAuthor)
	}
	return p.keepChat(m), nil
}

// checkChat decodes a chat message and checks it is the table's and
// signed by the seat it names.
func (p *Phone) checkChat(enc []byte) (*chat.Message, error) {
	if p.roster == nil {
		return nil, errors.New("phoneseat: a chat message before the table started")
	}
	m, err := chat.Unmarshal(enc)
	if err != nil {
		return nil, fmt.Errorf("phoneseat: chat: %w", err)
	}
	gid, _ := p.roster.GameID()
	if m.Game != gid {
		return nil, fmt.Errorf("phoneseat: chat message of another table (game %x)", m.Game[:4])
	}
	if int(m.Seat) >= len(p.roster.Seats) {
		return nil, fmt.Errorf("phoneseat: chat message of seat %d: the table has %d seats", m.Seat, len(p.roster.Seats))
	}
	if err := m.Verify(p.roster.Seats[m.Seat].SignKey); err != nil {
		return nil, fmt.Errorf("phoneseat: refused: %w", err)
	}
	return m, nil
}

// chatPrefix begins the storage keys of the chat messages a phone kept.
const chatPrefix = "c/"

// keepChat keeps m unless it was seen, and returns the record that
// stores it; a message of this seat's own (from before a reload) moves
// its next sequence number past it.
func (p *Phone) keepChat(m *chat.Message) Effects {
	if p.chat.seen == nil {
		p.chat.seen, p.chat.count = map[chatKey]bool{}, map[uint8]int{}
	}
	k := chatKey{m.Seat, m.Seq}
	if p.chat.seen[k] {
		return Effects{}
	}
	p.chat.seen[k] = true
	p.chat.count[m.Seat]++
	p.chat.msgs = append(p.chat.msgs, m)
	if int(m.Seat) == p.seat && m.Seq >= p.chat.nextSeq {
		p.chat.nextSeq = m.Seq + 1
	}
	return Effects{Puts: []Put{{Key: fmt.Sprintf("%s%06d", chatPrefix, len(p.chat.msgs)-1), Value: m.Marshal()}}}
}

// restoreChat keeps the chat messages a reloaded phone stored (each
// checked again against the roster; the game's gate held when it was
// kept).
func (p *Phone) restoreChat(kv map[string][]byte) {
	var keys []string
	for k := range kv {
		if strings.HasPrefix(k, chatPrefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m, err := p.checkChat(kv[k]); err == nil {
			p.keepChat(m)
		}
	}
}

// Chat writes text in the table chat: cleaned (chat.Clean), signed with
// the seat's key as its next message, kept, and sent to the table
// through the server. It refuses before the table starts and once its
// run is over, a seat the game bars from writing now, and a seat writing
// too fast.
func (p *Phone) Chat(now time.Time, text string) (Effects, error) {
	e, err := p.chatWrite(now, text)
	p.chat.err = ""
	if err != nil {
		p.chat.err = err.Error()
	}
	return e, err
}

func (p *Phone) chatWrite(now time.Time, text string) (Effects, error) {
	if p.rs == nil {
		return Effects{}, errors.New("the chat opens once the table starts")
	}
	if p.over() {
		return Effects{}, errors.New("the game is over: the chat is closed")
	}
	clean, err := chat.Clean(text)
	if err != nil {
		return Effects{}, err
	}
	if !p.mayChat(engine.Seat(p.seat)) {
		return Effects{}, errors.New("you may not write in the chat now")
	}
	if p.chat.send == nil {
		p.chat.send = chat.SendLimiter()
	}
	self := uint8(p.seat)
	if !p.chat.send.Allow(self, now) {
		return Effects{}, fmt.Errorf("too many messages: wait %.0f s", max(1, p.chat.send.Wait(self, now).Seconds()))
	}
	seq := max(p.chat.nextSeq, 1)
	gid, _ := p.roster.GameID()
	m := &chat.Message{Game: gid, Seat: self, Seq: seq, Time: now, Text: clean}
	if err := m.Sign(p.sign); err != nil {
		return Effects{}, err
	}
	e := p.keepChat(m)
	// The sequence number is kept before the message leaves: a reloaded
	// page never signs another message under it (the table would drop it
	// as seen).
	e.Puts = append(e.Puts, Put{Key: "chatseq", Value: binary.BigEndian.AppendUint32(nil, p.chat.nextSeq)})
	e.Control = []Control{{T: "chat", Chat: m.Marshal()}}
	return e, nil
}

// chatLines are the last messages, for the page.
func (p *Phone) chatLines() []ChatLine {
	msgs := p.chat.msgs
	if len(msgs) > MaxChatShown {
		msgs = msgs[len(msgs)-MaxChatShown:]
	}
	var out []ChatLine
	for _, m := range msgs {
		name := fmt.Sprintf("seat %d", m.Seat)
		if p.roster != nil && int(m.Seat) < len(p.roster.Seats) {
			name = p.roster.Seats[m.Seat].Name
		}
		out = append(out, ChatLine{Name: name, Text: m.Text, You: int(m.Seat) == p.seat})
	}
	return out
}
