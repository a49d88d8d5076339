package bintrie_test

import (
	"bytes"
	"crypto/sha256"
	"slices"

	"github.com/n3node/n3node/pkg/core/bintrie"
)

// model is a naive EIP-7864 tree written straight from the spec: a map of
// stems to 256 optional values, and a root computed by recursively
// splitting the sorted stem list on each bit. It is the oracle for the
// property and fuzz tests.
type model struct {
	stems map[bintrie.Stem]*[256]*bintrie.Value
	cache map[bintrie.Stem][32]byte // stem hashes, dropped on write
}

func newModel() *model {
	return &model{stems: map[bintrie.Stem]*[256]*bintrie.Value{}, cache: map[bintrie.Stem][32]byte{}}
}

func (m *model) put(k bintrie.Key, v bintrie.Value) {
	s := *k.Stem()
	slots := m.stems[s]
	if slots == nil {
		slots = new([256]*bintrie.Value)
		m.stems[s] = slots
	}
	slots[k.Suffix()] = &v
	delete(m.cache, s)
}

func (m *model) get(k bintrie.Key) (bintrie.Value, bool) {
	slots := m.stems[*k.Stem()]
	if slots == nil || slots[k.Suffix()] == nil {
		return bintrie.Value{}, false
	}
	return *slots[k.Suffix()], true
}

func h64(a, b []byte) [32]byte {
	if bytes.Equal(a, make([]byte, 32)) && bytes.Equal(b, make([]byte, 32)) {
		return [32]byte{}
	}
	return sha256.Sum256(append(append([]byte{}, a...), b...))
}

func modelStemHash(s bintrie.Stem, slots *[256]*bintrie.Value) [32]byte {
	var level [][32]byte
	for _, v := range slots {
		var h [32]byte
		if v != nil {
			h = sha256.Sum256(v[:])
		}
		level = append(level, h)
	}
	for len(level) > 1 {
		var next [][32]byte
		for i := 0; i < len(level); i += 2 {
			next = append(next, h64(level[i][:], level[i+1][:]))
		}
		level = next
	}
	return sha256.Sum256(append(append(s[:], 0), level[0][:]...))
}

func stemBit(s bintrie.Stem, d int) int { return int(s[d/8]>>(7-d%8)) & 1 }

func (m *model) rootOf(stems []bintrie.Stem, depth int) [32]byte {
	switch len(stems) {
	case 0:
		return [32]byte{}
	case 1:
		h, ok := m.cache[stems[0]]
		if !ok {
			h = modelStemHash(stems[0], m.stems[stems[0]])
			m.cache[stems[0]] = h
		}
		return h
	}
	i := 0
	for i < len(stems) && stemBit(stems[i], depth) == 0 {
		i++
	}
	l, r := m.rootOf(stems[:i], depth+1), m.rootOf(stems[i:], depth+1)
	// Internal nodes hash without the zero rule (never both empty here).
	return sha256.Sum256(append(l[:], r[:]...))
}

func (m *model) sortedStems() []bintrie.Stem {
	stems := make([]bintrie.Stem, 0, len(m.stems))
	for s := range m.stems {
		stems = append(stems, s)
	}
	slices.SortFunc(stems, func(a, b bintrie.Stem) int { return bytes.Compare(a[:], b[:]) })
	return stems
}

func (m *model) root() bintrie.Hash {
	return m.rootOf(m.sortedStems(), 0)
}

// depthOf returns the depth at which stem s sits: one past the longest
// prefix it shares with any other stem (0 when it is alone).
func (m *model) depthOf(s bintrie.Stem) int {
	d := 0
	for o := range m.stems {
		if o == s {
			continue
		}
		p := 0
		for p < bintrie.MaxDepth && stemBit(o, p) == stemBit(s, p) {
			p++
		}
		d = max(d, p+1)
	}
	return d
}
