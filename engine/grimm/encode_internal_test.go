package grimm

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"
)

// Every field of State that a later move can depend on is in the
// encoding: changing any one of them changes the bytes.
func TestEncodingCoversEveryField(t *testing.T) {
	base, err := NewGame(Options{Players: []string{"A", "B", "C"}, Bets: true, Jewels: true, Abilities: true})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := base.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{
		"n":  true, // the number of players, encoded in the options
		"fx": true, // scratch, always empty between calls
	}
	typ := reflect.TypeOf(*base)
	for i := range typ.NumField() {
		f := typ.Field(i)
		if skip[f.Name] {
			continue
		}
		s := base.clone()
		v := reflect.ValueOf(s).Elem().Field(i)
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
		if !mutate(v) {
			t.Errorf("field %s (%s): no mutation", f.Name, f.Type)
			continue
		}
		got, err := s.AppendBinary(nil)
		if err != nil {
			t.Errorf("field %s: %v", f.Name, err)
			continue
		}
		if bytes.Equal(got, ref) {
			t.Errorf("field %s is not in the encoding", f.Name)
		}
	}
}

// mutate changes v (its first element, for an array; one more element,
// for a slice; one field, for a struct).
func mutate(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Array:
		return v.Len() > 1 && mutate(v.Index(1))
	case reflect.Slice:
		e := reflect.New(v.Type().Elem()).Elem()
		mutate(e)
		v.Set(reflect.Append(v, e))
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			if mutate(f) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}
