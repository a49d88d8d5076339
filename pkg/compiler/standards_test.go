package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract/manifest/standard"
)

// TestStandards checks the NEP-17 corpus token against the standards it
// claims, then breaks its ABI in the ways the check must catch.
func TestStandards(t *testing.T) {
	ensureInterop(t)
	dir := filepath.Join(corpusDir, "nep17")
	cfg, _ := caseConfig(t, dir)
	_, m, _, err := Compile(dir, Options{Config: *cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := standard.Check(m, "NEP-17"); err != nil {
		t.Fatal(err)
	}
	if err := standard.Check(m, "NEP-11"); err == nil || !strings.Contains(err.Error(), "non-divisible: ") ||
		!strings.Contains(err.Error(), "; divisible: ") {
		t.Errorf("NEP-11: %v", err)
	}
	m.ABI.GetMethod("decimals", 0).Safe = false
	want := "manifest is not compliant with 'NEP-17': 'decimals' method has wrong safe flag: expected true"
	if err := standard.Check(m, "NEP-17"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	m.ABI.GetMethod("decimals", 0).Safe = true
	m.ABI.GetMethod("transfer", 4).Name = "send"
	want = "manifest is not compliant with 'NEP-17': method missing: 'transfer' with 4 parameters"
	if err := standard.Check(m, "NEP-17"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	m.ABI.Events = nil
	if err := standard.Check(m, "NEP-24"); err == nil || !strings.Contains(err.Error(), "required standard") {
		t.Errorf("NEP-24: %v", err)
	}
}
