package config

import (
	"math/bits"
	"strconv"
	"strings"
)

// Hardfork identifies a protocol upgrade. Values are consecutive in
// activation order, so hardforks compare with < and >.
type Hardfork byte

// The hardforks neo-go 0.120.0 knows. HFDefault is not a hardfork: it
// stands for the behaviour from genesis and is always enabled.
const (
	HFDefault       Hardfork = iota // Default
	HFAspidochelone                 // Aspidochelone
	HFBasilisk                      // Basilisk
	HFCockatrice                    // Cockatrice
	HFDomovoi                       // Domovoi
	HFEchidna                       // Echidna
	HFFaun                          // Faun
	HFGorgon                        // Gorgon
	hfCount                         // number of values, HFDefault included
)

// HFLatestKnown is the newest hardfork this node implements.
const HFLatestKnown = hfCount - 1

// HFLatestStable is the newest hardfork enabled by default when a
// configuration has no Hardforks section at all: HFFaun, as in neo-go
// 0.120.0. Gorgon must be configured explicitly.
const HFLatestStable = HFFaun

var hardforkNames = [hfCount]string{"Default", "Aspidochelone", "Basilisk", "Cockatrice", "Domovoi", "Echidna", "Faun", "Gorgon"}

// String returns the name used in configuration files.
func (hf Hardfork) String() string {
	if hf < hfCount {
		return hardforkNames[hf]
	}
	return "Hardfork(" + strconv.Itoa(int(hf)) + ")"
}

// Cmp compares hardforks by activation order: -1, 0 or +1.
func (hf Hardfork) Cmp(other Hardfork) int {
	switch {
	case hf < other:
		return -1
	case hf > other:
		return 1
	}
	return 0
}

// Prev returns the hardfork before hf (HFDefault for HFAspidochelone and
// for HFDefault itself).
func (hf Hardfork) Prev() Hardfork {
	if hf == HFDefault {
		return HFDefault
	}
	return hf - 1
}

// IsValid reports whether hf is a known hardfork (HFDefault excluded).
func (hf Hardfork) IsValid() bool { return hf > HFDefault && hf < hfCount }

// Hardforks returns every known hardfork in activation order (HFDefault
// excluded).
func Hardforks() []Hardfork {
	res := make([]Hardfork, 0, hfCount-1)
	for hf := HFAspidochelone; hf < hfCount; hf++ {
		res = append(res, hf)
	}
	return res
}

// StableHardforks returns the hardforks up to HFLatestStable.
func StableHardforks() []Hardfork {
	return Hardforks()[:HFLatestStable]
}

// ParseHardfork returns the hardfork named s (case-sensitive, as in
// configuration files). "Default" is not accepted.
func ParseHardfork(s string) (Hardfork, bool) {
	for hf := HFAspidochelone; hf < hfCount; hf++ {
		if hardforkNames[hf] == s {
			return hf, true
		}
	}
	return HFDefault, false
}

// IsHardforkValid reports whether s names a known hardfork.
func IsHardforkValid(s string) bool {
	_, ok := ParseHardfork(s)
	return ok
}

// HardforkSet is a set of hardforks, one bit per value.
type HardforkSet uint16

// Has reports whether hf is in the set. HFDefault is always in it.
func (s HardforkSet) Has(hf Hardfork) bool {
	return hf == HFDefault || hf < hfCount && s&(1<<hf) != 0
}

// Len returns the number of hardforks in the set.
func (s HardforkSet) Len() int { return bits.OnesCount16(uint16(s)) }

// List returns the set's hardforks in activation order.
func (s HardforkSet) List() []Hardfork {
	var res []Hardfork
	for hf := HFAspidochelone; hf < hfCount; hf++ {
		if s.Has(hf) {
			res = append(res, hf)
		}
	}
	return res
}

// String lists the names, comma-separated.
func (s HardforkSet) String() string {
	var b strings.Builder
	for i, hf := range s.List() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(hf.String())
	}
	return b.String()
}

// HardforkSchedule is the activation height of every configured hardfork,
// normalized the way neo-go's Blockchain constructor does it (see
// ProtocolConfiguration.HardforkSchedule). The zero value enables nothing.
// Lookups are array reads, cheap enough for the VM's hot path.
type HardforkSchedule struct {
	configured HardforkSet
	height     [hfCount]uint32
}

// Height returns the activation height of hf and whether hf is enabled at
// some height. HFDefault is enabled from 0.
func (s *HardforkSchedule) Height(hf Hardfork) (uint32, bool) {
	if hf == HFDefault {
		return 0, true
	}
	if !s.configured.Has(hf) {
		return 0, false
	}
	return s.height[hf], true
}

// IsEnabled reports whether hf is active in the block at height (neo-go
// Blockchain.IsHardforkEnabled). HFDefault is always enabled.
func (s *HardforkSchedule) IsEnabled(hf Hardfork, height uint32) bool {
	if hf == HFDefault {
		return true
	}
	return hf < hfCount && s.configured&(1<<hf) != 0 && height >= s.height[hf]
}

// IsActivation reports whether height is the block that activates hf.
func (s *HardforkSchedule) IsActivation(hf Hardfork, height uint32) bool {
	return hf.IsValid() && s.configured.Has(hf) && s.height[hf] == height
}

// EnabledAt returns the set of hardforks active at height.
func (s *HardforkSchedule) EnabledAt(height uint32) HardforkSet {
	var res HardforkSet
	for hf := HFAspidochelone; hf < hfCount; hf++ {
		if s.IsEnabled(hf, height) {
			res |= 1 << hf
		}
	}
	return res
}

// Configured returns the set of hardforks that have an activation height.
func (s *HardforkSchedule) Configured() HardforkSet { return s.configured }

// Latest returns the newest hardfork active at height, walking in order and
// stopping at the first inactive one, as neo-go's getCurrentHF does. It
// returns HFDefault if none is active.
func (s *HardforkSchedule) Latest(height uint32) Hardfork {
	cur := HFDefault
	for hf := HFAspidochelone; hf < hfCount; hf++ {
		if !s.IsEnabled(hf, height) {
			break
		}
		cur = hf
	}
	return cur
}
