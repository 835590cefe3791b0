package chat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// FileMagic starts a chat file.
const FileMagic = "masque chat v1\n"

// MaxFileMessages bounds a chat file's count (MaxPerAuthor for each of up
// to 64 seats).
const MaxFileMessages = 64 * MaxPerAuthor

// File is a game's chat as saved beside its transcript: the game id, then
// the messages in the order this peer received them (its own included).
type File struct {
	Game     [32]byte
	Messages []*Message
}

// Marshal encodes f:
//
//	magic  "masque chat v1\n" (15 bytes)
//	game   32 bytes
//	count  u32
//	count × (u16 length ‖ message)
func (f *File) Marshal() ([]byte, error) {
	if len(f.Messages) > MaxFileMessages {
		return nil, fmt.Errorf("chat: %d messages, at most %d", len(f.Messages), MaxFileMessages)
	}
	var b bytes.Buffer
	b.WriteString(FileMagic)
	b.Write(f.Game[:])
	binary.Write(&b, binary.BigEndian, uint32(len(f.Messages)))
	for i, m := range f.Messages {
		if m.Game != f.Game {
			return nil, fmt.Errorf("chat: message %d is of another game", i)
		}
		enc := m.Marshal()
		binary.Write(&b, binary.BigEndian, uint16(len(enc)))
		b.Write(enc)
	}
	return b.Bytes(), nil
}

// UnmarshalFile decodes a chat file strictly (every message of the file's
// game, nothing after the last). Signatures are not checked: see
// [File.Verify].
func UnmarshalFile(data []byte) (*File, error) {
	r := bytes.NewReader(data)
	magic := make([]byte, len(FileMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != FileMagic {
		return nil, fmt.Errorf("%w: not a chat file (no %q)", ErrDecode, FileMagic[:len(FileMagic)-1])
	}
	f := &File{}
	var count uint32
	if _, err := io.ReadFull(r, f.Game[:]); err != nil {
		return nil, fmt.Errorf("%w: game id: %w", ErrDecode, err)
	}
	if err := binary.Read(r, binary.BigEndian, &count); err != nil {
		return nil, fmt.Errorf("%w: count: %w", ErrDecode, err)
	}
	if count > MaxFileMessages {
		return nil, fmt.Errorf("%w: %d messages, at most %d", ErrDecode, count, MaxFileMessages)
	}
	for i := range count {
		var n uint16
		if err := binary.Read(r, binary.BigEndian, &n); err != nil {
			return nil, fmt.Errorf("%w: message %d length: %w", ErrDecode, i, err)
		}
		if int(n) > MaxMessage {
			return nil, fmt.Errorf("%w: message %d: %d bytes, at most %d", ErrDecode, i, n, MaxMessage)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("%w: message %d: %w", ErrDecode, i, err)
		}
		m, err := Unmarshal(b)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		if m.Game != f.Game {
			return nil, fmt.Errorf("%w: message %d is of another game", ErrDecode, i)
		}
		f.Messages = append(f.Messages, m)
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last message", ErrDecode, r.Len())
	}
	return f, nil
}

// Verify checks every message against the seats' signing keys (by seat)
// and that no message appears twice (one seat's sequence number twice).
// It returns the messages that pass and an error naming each that does
// not.
func (f *File) Verify(keys [][]byte) ([]*Message, error) {
	var good []*Message
	var errs []error
	type key struct {
		seat uint8
		seq  uint32
	}
	seen := map[key]bool{}
	for i, m := range f.Messages {
		if int(m.Seat) >= len(keys) {
			errs = append(errs, fmt.Errorf("message %d: seat %d is not at the table", i, m.Seat))
			continue
		}
		if err := m.Verify(keys[m.Seat]); err != nil {
			errs = append(errs, fmt.Errorf("message %d: %w", i, err))
			continue
		}
		if seen[key{m.Seat, m.Seq}] {
			errs = append(errs, fmt.Errorf("message %d: seat %d's message %d again (a replay)", i, m.Seat, m.Seq))
			continue
		}
		seen[key{m.Seat, m.Seq}] = true
		good = append(good, m)
	}
	return good, errors.Join(errs...)
}
