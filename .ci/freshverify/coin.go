package main

import (
	"crypto/sha512"
	"encoding/binary"
)

type Stream struct {
	blk func(i uint64) []byte
	i   uint64
	buf []byte
}

func (s *Stream) next() uint64 {
	if len(s.buf) == 0 {
		s.buf = s.blk(s.i)
		s.i++
	}
	v := binary.BigEndian.Uint64(s.buf[:8])
	s.buf = s.buf[8:]
	return v
}
func (s *Stream) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	m := uint64(n)
	t := (-m) % m // 2^64 mod m
	for {
		v := s.next()
		if v >= t {
			return int(v % m)
		}
	}
}

func CoinStream(seed []byte, P string) *Stream {
	return &Stream{blk: func(i uint64) []byte {
		b := append(u32b(21), "masque/coin-stream/v1"...)
		b = append(b, seed...)
		b = append(b, u32b(uint32(len(P)))...)
		b = append(b, P...)
		b = append(b, u64b(i)...)
		h := sha512.Sum512(b)
		return h[:]
	}}
}

func CoinPermutation(seed []byte, P string, n int) []int {
	s := CoinStream(seed, P)
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i >= 1; i-- {
		j := s.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

func GrimmStream(coin []byte, purpose string) *Stream {
	return &Stream{blk: func(i uint64) []byte {
		b := []byte("masque/grimm/coin/v1")
		b = append(b, byte(len(purpose)))
		b = append(b, purpose...)
		b = append(b, coin...)
		b = append(b, u64b(i)...)
		h := sha512.Sum512(b)
		return h[:]
	}}
}
