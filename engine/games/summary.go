package games

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Ending is the summary's closing line, "HEAD. Won by WINNERS.", as
// verify and play print it, or "" while the game goes on.
func (s Summary) Ending() string {
	if !s.Over {
		return ""
	}
	return fmt.Sprintf("%s. Won by %s.", s.Head, ListAnd(s.Winners, "nobody"))
}

// Summary is the public result of a game, as 'masque script', 'verify'
// and 'replay' print it: who won, a headline, each player's tally, and the
// game's own fields for --json.
type Summary struct {
	Over    bool
	Winners []string // the winners' names, in seat order
	// Head is a one-line public headline for people ("Mascarade, turn 12,
	// 3 coins in the court"; "The Grimm Masquerade, over after round 3").
	Head string
	// Unit names the tally in Scores ("coins", "roses").
	Unit   string
	Scores []Score // one per player, in seat order
	// Tally, if set, says Scores in words for a game whose tally is no
	// count ("alive: Anna, Boris; out: Clara"); people are shown it
	// instead of "alive: Anna 1, Clara 0".
	Tally string
	// Fields are the game's own JSON fields, after "over" and "winners",
	// in order (values marshal with encoding/json).
	Fields []Field
}

// Score is one player's tally.
type Score struct {
	Name  string
	Value int
}

// Field is one of a game's own JSON fields in a [Summary].
type Field struct {
	Key   string
	Value any
}

// MarshalJSON returns {"over":…,"winners":[…],…Fields}: the JSON object
// of the summary, winners [] rather than null.
func (s Summary) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	w := s.Winners
	if w == nil {
		w = []string{}
	}
	b.WriteString(`{"over":`)
	if err := appendJSON(&b, s.Over); err != nil {
		return nil, err
	}
	b.WriteString(`,"winners":`)
	if err := appendJSON(&b, w); err != nil {
		return nil, err
	}
	for _, f := range s.Fields {
		b.WriteByte(',')
		if err := appendJSON(&b, f.Key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := appendJSON(&b, f.Value); err != nil {
			return nil, fmt.Errorf("summary field %s: %w", f.Key, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func appendJSON(b *bytes.Buffer, v any) error {
	enc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(enc)
	return nil
}

// UnmarshalJSON reads a summary's JSON object back: over, winners, and
// the other keys as Fields (values as [json.RawMessage]), in order. Head,
// Unit and Scores are not part of the JSON form.
func (s *Summary) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("summary: want a JSON object")
	}
	*s = Summary{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("summary: %w", err)
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("summary: %s: %w", key, err)
		}
		switch key {
		case "over":
			err = json.Unmarshal(raw, &s.Over)
		case "winners":
			err = json.Unmarshal(raw, &s.Winners)
		default:
			s.Fields = append(s.Fields, Field{Key: key, Value: raw})
		}
		if err != nil {
			return fmt.Errorf("summary: %s: %w", key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	return nil
}

// Field returns the value of the field called key, or nil.
func (s Summary) Field(key string) any {
	for _, f := range s.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}
