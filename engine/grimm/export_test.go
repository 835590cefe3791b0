package grimm

import "fmt"

func (s *State) Debug() string {
	return fmt.Sprintf("phase=%d why=%d pending=%+v eaves=%v commit=%v", s.phase, s.why, s.pending, s.eaves, s.commit)
}
