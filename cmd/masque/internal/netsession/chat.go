package netsession

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/p2p/chat"
)

// chatFile is the state directory's file of chat messages: each message
// as a u16 length then its bytes (package chat), appended as they come. A
// torn last record (a crash while writing) is ignored.
const chatFile = "chat"

// loadChat reads the chat messages kept in dir (none if there is no
// file): those that decode, up to the first that does not.
func loadChat(dir string) ([]*chat.Message, error) {
	data, err := os.ReadFile(filepath.Join(dir, chatFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("chat: %w", err)
	}
	var out []*chat.Message
	for len(data) >= 2 {
		n := int(binary.BigEndian.Uint16(data))
		if n > chat.MaxMessage || len(data) < 2+n {
			break
		}
		m, err := chat.Unmarshal(data[2 : 2+n])
		if err != nil {
			break
		}
		out = append(out, m)
		data = data[2+n:]
	}
	return out, nil
}

// appendChat appends m to dir's chat file. Chat is not part of the game:
// it is not synced to disk before it is shown.
func appendChat(dir string, m *chat.Message) error {
	f, err := os.OpenFile(filepath.Join(dir, chatFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	enc := m.Marshal()
	_, err = f.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(enc))), enc...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// chatAtFile is the state directory's record of where each chat message
// of chatFile came in the log: a u32 per message, the number of log
// lines before it, in the same order. A restarted screen shows each
// message where it was, not after the whole replayed log.
const chatAtFile = "chatat"

// loadChatAt reads dir's chatAtFile (none if there is no file).
func loadChatAt(dir string) ([]int, error) {
	data, err := os.ReadFile(filepath.Join(dir, chatAtFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("chat: %w", err)
	}
	var out []int
	for ; len(data) >= 4; data = data[4:] {
		out = append(out, int(binary.BigEndian.Uint32(data)))
	}
	return out, nil
}

// appendChatAt appends a message's place in the log to dir's chatAtFile.
func appendChatAt(dir string, lines int) error {
	f, err := os.OpenFile(filepath.Join(dir, chatAtFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	_, err = f.Write(binary.BigEndian.AppendUint32(nil, uint32(lines)))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// onChat keeps a new message (memory and state directory) with its place
// in the log, and wakes the screen.
func (g *Game) onChat(m *chat.Message) {
	at := g.seat.logLines()
	g.mu.Lock()
	g.chat = append(g.chat, m)
	if len(g.chatAt) == len(g.chat)-1 {
		g.chatAt = append(g.chatAt, at)
		if err := appendChatAt(g.cfg.Store.Dir(), at); err != nil && g.chatErr == nil {
			g.chatErr = err
		}
	}
	if err := appendChat(g.cfg.Store.Dir(), m); err != nil && g.chatErr == nil {
		g.chatErr = err
	}
	g.mu.Unlock()
	if g.cfg.OnChat != nil {
		g.cfg.OnChat(g.chatLine(m))
	}
	g.notify()
}

// chatLine is m for the screen: its author's name and when.
func (g *Game) chatLine(m *chat.Message) session.ChatLine {
	name := fmt.Sprintf("seat %d", m.Seat)
	if int(m.Seat) < len(g.names) {
		name = g.names[m.Seat]
	}
	return session.ChatLine{Seat: int(m.Seat), Name: name, Text: m.Text, At: m.Time, Seq: m.Seq}
}

// mayChat is the room's MayChat: the game's rules decide (engine.ChatGate)
// when they implement it; otherwise every seat may write.
func (g *Game) mayChat(seat uint8) bool {
	return g.seat.MayChat(engine.Seat(seat))
}

// MayChat reports whether seat may write in the chat now, by the state of
// the game after the last applied entry (engine.ChatGate).
func (d *Seat) MayChat(seat engine.Seat) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gate, ok := d.tab.Rules().(engine.ChatGate); ok {
		return gate.MayChat(seat)
	}
	return true
}

// Chat implements session.Chatter: it sends text to every seat.
func (g *Game) Chat(text string) error {
	_, err := g.room.Chat(text)
	return err
}

// ChatLog implements session.Chatter: the messages so far, in the order
// they came.
func (g *Game) ChatLog() []session.ChatLine {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]session.ChatLine, 0, len(g.chat))
	for i, m := range g.chat {
		l := g.chatLine(m)
		if i < len(g.chatAt) {
			l.After = g.chatAt[i] + 1
		}
		out = append(out, l)
	}
	return out
}

// ChatFile is the game's chat as saved beside its transcript (nil when
// nobody wrote).
func (g *Game) ChatFile() *chat.File {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.chat) == 0 {
		return nil
	}
	return &chat.File{Game: g.room.GameID(), Messages: append([]*chat.Message(nil), g.chat...)}
}

// logLines is the number of lines of the seat's log (narration) so far.
func (d *Seat) logLines() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.narr.Lines())
}
