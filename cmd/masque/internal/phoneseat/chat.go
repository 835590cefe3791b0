package phoneseat

import (
	"encoding/binary"
	"errors"
	"fmt"
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
	nextSeq uint32 // this seat's next sequence number; kept in "chatseq"
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

// onChat takes a chat message the server forwarded: kept and shown if it
// is the table's and its author's signature holds; a message seen before
// is ignored. An error says what was wrong with it.
func (p *Phone) onChat(enc []byte) error {
	if p.roster == nil {
		return errors.New("phoneseat: a chat message before the table started")
	}
	m, err := chat.Unmarshal(enc)
	if err != nil {
		return fmt.Errorf("phoneseat: chat: %w", err)
	}
	gid, _ := p.roster.GameID()
	if m.Game != gid {
		return fmt.Errorf("phoneseat: chat message of another table (game %x)", m.Game[:4])
	}
	if int(m.Seat) >= len(p.roster.Seats) {
		return fmt.Errorf("phoneseat: chat message of seat %d: the table has %d seats", m.Seat, len(p.roster.Seats))
	}
	if err := m.Verify(p.roster.Seats[m.Seat].SignKey); err != nil {
		return fmt.Errorf("phoneseat: refused: %w", err)
	}
	p.keepChat(m)
	return nil
}

// keepChat keeps m unless it was seen; a message of this seat's own
// (from before a reload) moves its next sequence number past it.
func (p *Phone) keepChat(m *chat.Message) {
	if p.chat.seen == nil {
		p.chat.seen = map[chatKey]bool{}
	}
	k := chatKey{m.Seat, m.Seq}
	if p.chat.seen[k] {
		return
	}
	p.chat.seen[k] = true
	p.chat.msgs = append(p.chat.msgs, m)
	if int(m.Seat) == p.seat && m.Seq >= p.chat.nextSeq {
		p.chat.nextSeq = m.Seq + 1
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
	p.keepChat(m)
	// The sequence number is kept before the message leaves: a reloaded
	// page never signs another message under it (the table would drop it
	// as seen).
	return Effects{Puts: []Put{{Key: "chatseq", Value: binary.BigEndian.AppendUint32(nil, p.chat.nextSeq)}},
		Control: []Control{{T: "chat", Chat: m.Marshal()}}}, nil
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
