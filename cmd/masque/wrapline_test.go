package main

import (
	"strings"
	"testing"
)

// TestWrapLine: a host's or joiner's lines on an 80-column terminal
// break between words ("tell joiners the join code or this
// fingerprint"), never inside one ("thi" / "s fingerprint", as the
// terminal broke them), and an invite longer than a line stays whole.
func TestWrapLine(t *testing.T) {
	const fp = "your creator fingerprint: 0ZYW-GZJF-TPPS-E2JP (tell joiners the join code or this fingerprint: 'masque join' shows both, and anyone can advertise a table under your table's name)"
	got := wrapLine(fp, 80)
	for _, l := range strings.Split(got, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line of %d columns: %q", len([]rune(l)), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != fp || !strings.Contains(got, "\n") {
		t.Errorf("words changed or not wrapped: %q", got)
	}
	const invite = "invite: /ip4/192.0.2.2/udp/34601/quic-v1/p2p/12D3KooWPszq1gRXzy2ZnwGPvqTLGcqgX61w2KGKj6cjG64ZLmUS"
	if got := wrapLine(invite, 80); got != "invite:\n  /ip4/192.0.2.2/udp/34601/quic-v1/p2p/12D3KooWPszq1gRXzy2ZnwGPvqTLGcqgX61w2KGKj6cjG64ZLmUS" {
		t.Errorf("invite: %q", got)
	}
	const turn = "turn 2  carl swaps their right card with bob's right card  (swapped or not: only carl knows)"
	if got := wrapLine(turn, 80); !strings.HasPrefix(got, "turn 2  carl swaps") {
		t.Errorf("narration: %q", got)
	}
	if got := wrapLine(fp, 0); got != fp {
		t.Errorf("not a terminal: %q", got)
	}
}
