package config

import (
	"slices"
	"testing"
)

func TestHardforkEnum(t *testing.T) {
	names := []string{"Aspidochelone", "Basilisk", "Cockatrice", "Domovoi", "Echidna", "Faun", "Gorgon"}
	all := Hardforks()
	if len(all) != len(names) || HFLatestKnown != HFGorgon || HFLatestStable != HFFaun {
		t.Fatalf("Hardforks() = %v", all)
	}
	for i, hf := range all {
		if hf.String() != names[i] || Hardfork(i+1) != hf || !hf.IsValid() {
			t.Errorf("%d: %v", i, hf)
		}
		if p, ok := ParseHardfork(names[i]); !ok || p != hf || !IsHardforkValid(names[i]) {
			t.Errorf("ParseHardfork(%s) = %v %v", names[i], p, ok)
		}
		if hf.Prev() != hf-1 || hf.Cmp(hf) != 0 || HFDefault.Cmp(hf) != -1 || hf.Cmp(HFDefault) != 1 {
			t.Errorf("%v: order", hf)
		}
	}
	for _, bad := range []string{"Default", "Huyao", "aspidochelone", ""} {
		if _, ok := ParseHardfork(bad); ok || IsHardforkValid(bad) {
			t.Errorf("%q parsed", bad)
		}
	}
	if HFDefault.String() != "Default" || Hardfork(99).String() != "Hardfork(99)" || HFDefault.IsValid() || Hardfork(8).IsValid() {
		t.Error("names of non-hardforks")
	}
	if HFDefault.Prev() != HFDefault {
		t.Error("Prev(Default)")
	}
	if !slices.Equal(StableHardforks(), all[:6]) {
		t.Errorf("StableHardforks() = %v", StableHardforks())
	}
}

func TestHardforkSet(t *testing.T) {
	var s HardforkSet
	if !s.Has(HFDefault) || s.Has(HFAspidochelone) || s.Len() != 0 || s.String() != "" {
		t.Error("empty set")
	}
	s = 1<<HFBasilisk | 1<<HFGorgon
	if !s.Has(HFBasilisk) || !s.Has(HFGorgon) || s.Has(HFFaun) || s.Has(Hardfork(20)) || s.Len() != 2 ||
		!slices.Equal(s.List(), []Hardfork{HFBasilisk, HFGorgon}) || s.String() != "Basilisk, Gorgon" {
		t.Errorf("%v", s)
	}
}

// schedule builds the schedule of a hardfork map.
func schedule(m map[string]uint32) HardforkSchedule {
	p := ProtocolConfiguration{Hardforks: m}
	return p.HardforkSchedule()
}

func TestHardforkScheduleRules(t *testing.T) {
	type hh struct {
		hf Hardfork
		h  uint32
	}
	cases := []struct {
		name string
		m    map[string]uint32
		want []hh // configured hardforks; the rest must be off
	}{
		// No section: the stable ones (up to Faun) from genesis, Gorgon off.
		{"nil", nil, []hh{{HFAspidochelone, 0}, {HFBasilisk, 0}, {HFCockatrice, 0}, {HFDomovoi, 0}, {HFEchidna, 0}, {HFFaun, 0}}},
		// An empty section disables everything.
		{"empty", map[string]uint32{}, nil},
		// Hardforks before the first listed one are on from genesis.
		{"from Basilisk", map[string]uint32{"Basilisk": 2}, []hh{{HFAspidochelone, 0}, {HFBasilisk, 2}}},
		{"Echidna only", map[string]uint32{"Echidna": 10}, []hh{{HFAspidochelone, 0}, {HFBasilisk, 0}, {HFCockatrice, 0}, {HFDomovoi, 0}, {HFEchidna, 10}}},
		{"unit_testnet", map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5},
			[]hh{{HFAspidochelone, 1}, {HFBasilisk, 2}, {HFCockatrice, 3}, {HFDomovoi, 4}, {HFEchidna, 5}}},
		{"Gorgon only", map[string]uint32{"Gorgon": 0}, []hh{{HFAspidochelone, 0}, {HFBasilisk, 0}, {HFCockatrice, 0}, {HFDomovoi, 0}, {HFEchidna, 0}, {HFFaun, 0}, {HFGorgon, 0}}},
		// An explicit 0 after a non-zero height passes neo-go's Validate and
		// means "from genesis" for that hardfork.
		{"explicit zero", map[string]uint32{"Aspidochelone": 5, "Basilisk": 0}, []hh{{HFAspidochelone, 5}, {HFBasilisk, 0}}},
	}
	for _, c := range cases {
		s := schedule(c.m)
		var wantSet HardforkSet
		for _, w := range c.want {
			wantSet |= 1 << w.hf
			if h, ok := s.Height(w.hf); !ok || h != w.h {
				t.Errorf("%s: %v at %d %v, want %d", c.name, w.hf, h, ok, w.h)
			}
		}
		if s.Configured() != wantSet {
			t.Errorf("%s: configured %v, want %v", c.name, s.Configured(), wantSet)
		}
		for _, hf := range Hardforks() {
			if !wantSet.Has(hf) && s.IsEnabled(hf, 1<<31) {
				t.Errorf("%s: %v enabled", c.name, hf)
			}
		}
		// The normalized map says the same as the schedule.
		norm := normalizedHardforks(c.m)
		for _, hf := range Hardforks() {
			h, ok := norm[hf.String()]
			sh, sok := s.Height(hf)
			if ok != sok || h != sh {
				t.Errorf("%s: normalized map has %v=%d,%v; schedule %d,%v", c.name, hf, h, ok, sh, sok)
			}
		}
	}
}

func TestHardforkScheduleQueries(t *testing.T) {
	s := schedule(map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 2, "Domovoi": 10})
	if !s.IsEnabled(HFDefault, 0) || s.IsEnabled(HFAspidochelone, 0) || !s.IsEnabled(HFAspidochelone, 1) ||
		!s.IsEnabled(HFCockatrice, 2) || s.IsEnabled(HFDomovoi, 9) || !s.IsEnabled(HFDomovoi, 10) ||
		s.IsEnabled(HFEchidna, 1<<31) || s.IsEnabled(Hardfork(40), 1<<31) {
		t.Error("IsEnabled")
	}
	if h, ok := s.Height(HFDefault); !ok || h != 0 {
		t.Error("Height(Default)")
	}
	if _, ok := s.Height(HFEchidna); ok {
		t.Error("Height(Echidna)")
	}
	for h, want := range map[uint32]Hardfork{0: HFDefault, 1: HFAspidochelone, 2: HFCockatrice, 9: HFCockatrice, 10: HFDomovoi, 1 << 30: HFDomovoi} {
		if got := s.Latest(h); got != want {
			t.Errorf("Latest(%d) = %v, want %v", h, got, want)
		}
	}
	if got := s.EnabledAt(2); got.String() != "Aspidochelone, Basilisk, Cockatrice" {
		t.Errorf("EnabledAt(2) = %v", got)
	}
	if !s.IsActivation(HFBasilisk, 2) || s.IsActivation(HFBasilisk, 3) || s.IsActivation(HFEchidna, 0) || s.IsActivation(HFDefault, 0) {
		t.Error("IsActivation")
	}
	// Latest stops at the first inactive hardfork, as neo-go's getCurrentHF.
	q := schedule(map[string]uint32{"Aspidochelone": 5, "Basilisk": 0})
	if q.Latest(0) != HFDefault || !q.IsEnabled(HFBasilisk, 0) {
		t.Error("quirk")
	}
	var zero HardforkSchedule
	if zero.IsEnabled(HFAspidochelone, 1<<31) || zero.Latest(100) != HFDefault || zero.EnabledAt(5) != 0 {
		t.Error("zero schedule")
	}
}

func BenchmarkIsHardforkEnabled(b *testing.B) {
	s := schedule(map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5, "Faun": 6, "Gorgon": 7})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for hf := HFAspidochelone; hf <= HFGorgon; hf++ {
			if s.IsEnabled(hf, 5) {
				n++
			}
		}
	}
	_ = n
}
