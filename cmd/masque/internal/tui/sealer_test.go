package tui

import (
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// sealerSession is a session that keeps its seal salt (a networked seat's
// state directory does).
type sealerSession struct {
	session.Session
	salt [32]byte
}

func (s sealerSession) SealSalt() [32]byte { return s.salt }

// The screen seals with the session's kept salt when it has one (so that a
// restarted seat's screen opens what the first one sealed), and draws a
// fresh one per screen otherwise.
func TestScreenUsesKeptSealSalt(t *testing.T) {
	kept := [32]byte{1, 2, 3}
	if m := New(sealerSession{salt: kept}, Options{}); m.salt != kept {
		t.Errorf("the screen's salt %x, want the session's %x", m.salt, kept)
	}
	a, b := New(sealerSession{}.Session, Options{}), New(sealerSession{}.Session, Options{})
	if a.salt == b.salt || a.salt == [32]byte{} {
		t.Errorf("screens without a kept salt: %x and %x", a.salt, b.salt)
	}
}
