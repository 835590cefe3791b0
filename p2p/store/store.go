package store

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/masque-games/masque/engine/ledger"
	"golang.org/x/crypto/cryptobyte"
)

// File names inside a state directory.
const (
	TableFile   = "table"
	SecretFile  = "secret"
	LogFile     = "log"
	VerdictFile = "verdict"
	// SignedFile marks a state directory whose seat has signed entries:
	// after a restart its seat may have signed more than its log holds (a
	// write lost with the disk, a directory restored from a backup), and
	// it asks the other seats before it signs again (p2p.Room.Run).
	SignedFile = "signed"
)

// maxRecord bounds one record so that a corrupt length cannot make Open
// allocate without limit.
const maxRecord = 4 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Table is what is fixed when a table starts: the roster every seat signed,
// the signatures, and the seats' network addresses (binary multiaddrs).
type Table struct {
	Roster *ledger.Roster
	Sigs   [][ed25519.SignatureSize]byte // Sigs[i] is seat i's roster signature
	Addrs  [][][]byte                    // Addrs[i] are seat i's multiaddrs, binary form
}

// ErrInUse is wrapped by Open's error when another process has the state
// directory open (a game still running).
var ErrInUse = errors.New("in use by another masque process (a game still running)")

// Store is an open state directory, locked for this process until Close.
// Its methods are safe for concurrent use.
type Store struct {
	dir   string
	mu    sync.Mutex
	table Table
	// offsets[i] is where entry i's record starts in the log file, end
	// where the next one goes: the entries themselves are read from the
	// file when asked for (Read), not kept in memory (issue 28: a room
	// of 18 seats in one process held 18 whole logs).
	offsets []int64
	end     int64
	log     *os.File
	dropped int64
	// durable is how many entries the last fsync of the log covered
	// (those found at Open count as durable).
	durable int
}

// Create makes a new state directory (mode 0700) for a table and writes its
// table record and secret. It fails if dir already holds a table.
func Create(dir string, t Table, secret []byte) (*Store, error) {
	if t.Roster == nil || len(t.Sigs) != len(t.Roster.Seats) || len(t.Addrs) != len(t.Roster.Seats) {
		return nil, errors.New("store: table needs a roster and one signature and address list per seat")
	}
	enc, err := encodeTable(t)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, TableFile)); err == nil {
		return nil, fmt.Errorf("store: %s already holds a table", dir)
	}
	if err := writeOnce(dir, SecretFile, record(secret)); err != nil {
		return nil, err
	}
	if err := writeAtomic(dir, TableFile, record(enc)); err != nil {
		return nil, err
	}
	return Open(dir)
}

// Open loads a state directory written by [Create], recovering from a
// truncated last log record.
func Open(dir string) (*Store, error) {
	data, err := os.ReadFile(filepath.Join(dir, TableFile))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	recs, rest := splitRecords(data)
	if len(recs) != 1 || rest != len(data) {
		return nil, fmt.Errorf("store: %s: damaged table record", filepath.Join(dir, TableFile))
	}
	t, err := decodeTable(recs[0])
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", filepath.Join(dir, TableFile), err)
	}
	s := &Store{dir: dir, table: t}
	path := filepath.Join(dir, LogFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// One process at a time: two writing one log would interleave it.
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %s: %w", dir, err)
	}
	logData, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: read %s: %w", path, err)
	}
	recs, good := splitRecords(logData)
	var off int64
	for i, r := range recs {
		e, err := ledger.UnmarshalEntry(r)
		if err == nil && e.Pos != uint64(i) {
			err = fmt.Errorf("entry at record %d claims position %d", i, e.Pos)
		}
		if err != nil {
			// A record with a good checksum but a bad entry is not a torn
			// write; keep what came before it and drop the rest.
			good = recordOffset(recs, i)
			break
		}
		s.offsets = append(s.offsets, off)
		off += 8 + int64(len(r))
	}
	s.end = int64(good)
	if good < len(logData) {
		s.dropped = int64(len(logData) - good)
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, fmt.Errorf("store: truncate %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, fmt.Errorf("store: sync %s: %w", path, err)
		}
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	s.log = f
	s.durable = len(s.offsets)
	return s, nil
}

// Dir is the state directory.
func (s *Store) Dir() string { return s.dir }

// Table returns the table record.
func (s *Store) Table() Table { return s.table }

// Dropped is the number of bytes of a damaged log tail that Open removed.
func (s *Store) Dropped() int64 { return s.dropped }

// Entries returns the entries loaded by Open and appended since, in
// order, read from the log file.
func (s *Store) Entries() ([]*ledger.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readLocked(0, uint64(len(s.offsets)))
}

// Len is the number of entries in the log.
func (s *Store) Len() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return uint64(len(s.offsets))
}

// Read returns entries from up to (not including) to, read from the log
// file; to must not pass [Store.Len]. Entries written but not yet synced
// are read too.
func (s *Store) Read(from, to uint64) ([]*ledger.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readLocked(from, to)
}

func (s *Store) readLocked(from, to uint64) ([]*ledger.Entry, error) {
	if from > to || to > uint64(len(s.offsets)) {
		return nil, fmt.Errorf("store: entries %d to %d asked of a log of %d", from, to, len(s.offsets))
	}
	if from == to {
		return nil, nil
	}
	if s.log == nil {
		return nil, errors.New("store: closed")
	}
	start, stop := s.offsets[from], s.end
	if to < uint64(len(s.offsets)) {
		stop = s.offsets[to]
	}
	data := make([]byte, stop-start)
	if _, err := s.log.ReadAt(data, start); err != nil {
		return nil, fmt.Errorf("store: read entries %d to %d: %w", from, to, err)
	}
	recs, good := splitRecords(data)
	if good != len(data) || uint64(len(recs)) != to-from {
		return nil, fmt.Errorf("store: entries %d to %d: the log file changed under this process", from, to)
	}
	out := make([]*ledger.Entry, len(recs))
	for i, r := range recs {
		e, err := ledger.UnmarshalEntry(r)
		if err == nil && e.Pos != from+uint64(i) {
			err = fmt.Errorf("claims position %d", e.Pos)
		}
		if err != nil {
			return nil, fmt.Errorf("store: entry %d: %w", from+uint64(i), err)
		}
		out[i] = e
	}
	return out, nil
}

// Append writes e as the next log record and fsyncs the log. e.Pos must be
// the number of entries already stored.
func (s *Store) Append(e *ledger.Entry) error { return s.write(e, true) }

// Write appends e to the log file like [Store.Append] but does not sync
// it: entries are written with Write and made durable by one [Store.Sync]
// before anything that depends on them leaves the seat (p2p.Room syncs
// before it sends a frame). A crash may lose an entry written but not
// yet synced; [Store.Read] and [Store.Entries] return it until then.
func (s *Store) Write(e *ledger.Entry) error { return s.write(e, false) }

// write appends e's record to the log file and, with sync, fsyncs it
// before it returns (under the same lock: e is durable when it does).
func (s *Store) write(e *ledger.Entry, sync bool) error {
	enc, err := e.MarshalBinary()
	if err != nil {
		return fmt.Errorf("store: entry %d: %w", e.Pos, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return errors.New("store: closed")
	}
	if e.Pos != uint64(len(s.offsets)) {
		return fmt.Errorf("store: entry %d appended after %d entries", e.Pos, len(s.offsets))
	}
	rec := record(enc)
	if _, err := s.log.Write(rec); err != nil {
		return fmt.Errorf("store: append entry %d: %w", e.Pos, err)
	}
	s.offsets = append(s.offsets, s.end)
	s.end += int64(len(rec))
	if !sync {
		return nil
	}
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("store: sync entry %d: %w", e.Pos, err)
	}
	s.durable = len(s.offsets)
	return nil
}

// Sync makes every entry written so far durable (one fsync of the log
// file).
func (s *Store) Sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return errors.New("store: closed")
	}
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("store: sync the log (%d entries): %w", len(s.offsets), err)
	}
	s.durable = len(s.offsets)
	return nil
}

// Durable is the number of entries the last [Store.Sync] (or
// [Store.Append]) made durable, or that [Open] found: a crash of the
// machine may lose the entries written after them, never these.
func (s *Store) Durable() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.durable
}

// Secret returns the secret given to Create.
func (s *Store) Secret() ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, SecretFile))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	recs, good := splitRecords(data)
	if len(recs) != 1 || good != len(data) {
		return nil, fmt.Errorf("store: %s: damaged secret record", filepath.Join(s.dir, SecretFile))
	}
	return recs[0], nil
}

// SaveVerdict stores the encoded verdict that ended the table, replacing
// any earlier one atomically.
func (s *Store) SaveVerdict(v []byte) error {
	return writeAtomic(s.dir, VerdictFile, record(v))
}

// Verdict returns the stored verdict, or nil if the table has none.
func (s *Store) Verdict() ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, VerdictFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	recs, good := splitRecords(data)
	if len(recs) != 1 || good != len(data) {
		return nil, fmt.Errorf("store: damaged verdict record")
	}
	return recs[0], nil
}

// MarkSigned records, durably and once, that this directory's seat signs
// entries (see SignedFile). It is called before the first signature.
func (s *Store) MarkSigned() error {
	if s.Signed() {
		return nil
	}
	if err := writeOnce(s.dir, SignedFile, []byte("signed\n")); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// Signed reports whether MarkSigned was ever called on this directory.
func (s *Store) Signed() bool {
	_, err := os.Stat(filepath.Join(s.dir, SignedFile))
	return err == nil
}

// Close closes the log file.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return nil
	}
	err := s.log.Close()
	s.log = nil
	return err
}

func record(payload []byte) []byte {
	out := make([]byte, 8+len(payload))
	binary.BigEndian.PutUint32(out, uint32(len(payload)))
	binary.BigEndian.PutUint32(out[4:], crc32.Checksum(payload, castagnoli))
	copy(out[8:], payload)
	return out
}

// splitRecords returns the intact records at the start of data and the
// offset just past the last one.
func splitRecords(data []byte) (recs [][]byte, good int) {
	for {
		rest := data[good:]
		if len(rest) < 8 {
			return recs, good
		}
		n := binary.BigEndian.Uint32(rest)
		sum := binary.BigEndian.Uint32(rest[4:])
		if n > maxRecord || uint64(len(rest)-8) < uint64(n) {
			return recs, good
		}
		payload := rest[8 : 8+n]
		if crc32.Checksum(payload, castagnoli) != sum {
			return recs, good
		}
		recs = append(recs, payload)
		good += 8 + int(n)
	}
}

func recordOffset(recs [][]byte, i int) int {
	off := 0
	for _, r := range recs[:i] {
		off += 8 + len(r)
	}
	return off
}

func writeOnce(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("store: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", path, err)
	}
	return syncDir(dir)
}

func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("store: write %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("store: sync %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	return nil
}

func encodeTable(t Table) ([]byte, error) {
	roster, err := t.Roster.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var b cryptobyte.Builder
	b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(roster) })
	for i := range t.Roster.Seats {
		b.AddBytes(t.Sigs[i][:])
		b.AddUint8(uint8(len(t.Addrs[i])))
		for _, a := range t.Addrs[i] {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(a) })
		}
	}
	out, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("store: encode table: %w", err)
	}
	return out, nil
}

func decodeTable(data []byte) (Table, error) {
	s := cryptobyte.String(data)
	var n32 uint32
	var rb []byte
	if !s.ReadUint32(&n32) || n32 > maxRecord || !s.ReadBytes(&rb, int(n32)) {
		return Table{}, errors.New("truncated roster")
	}
	r, err := ledger.UnmarshalRoster(rb)
	if err != nil {
		return Table{}, err
	}
	t := Table{Roster: r}
	for i := range r.Seats {
		var sig [ed25519.SignatureSize]byte
		var n uint8
		if !s.CopyBytes(sig[:]) || !s.ReadUint8(&n) {
			return Table{}, fmt.Errorf("seat %d: truncated", i)
		}
		var addrs [][]byte
		for range int(n) {
			var a cryptobyte.String
			if !s.ReadUint16LengthPrefixed(&a) {
				return Table{}, fmt.Errorf("seat %d: truncated address", i)
			}
			addrs = append(addrs, append([]byte(nil), a...))
		}
		t.Sigs = append(t.Sigs, sig)
		t.Addrs = append(t.Addrs, addrs)
	}
	if !s.Empty() {
		return Table{}, fmt.Errorf("%d trailing bytes", len(s))
	}
	return t, nil
}
