package manifest

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// FuzzFromJSON feeds untrusted manifest JSON (as deploy transactions carry
// it) through decoding, validation and the stack item form.
func FuzzFromJSON(f *testing.F) {
	f.Add([]byte(`{"name":"x","abi":{"methods":[{"name":"m","offset":0,"parameters":[],"returntype":"Void","safe":false}],"events":[]},"features":{},"groups":[],"permissions":[{"contract":"*","methods":"*"}],"supportedstandards":[],"trusts":"*","extra":{"a":[1,"\u00e9"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := FromJSON(data)
		if err != nil {
			return
		}
		_ = m.IsValid(hash.Uint160{1}, true)
		if m.IsValid(hash.Uint160{}, true) != nil {
			return
		}
		si, err := m.ToStackItem()
		if err != nil {
			t.Fatal(err)
		}
		var m2 Manifest
		if err := m2.FromStackItem(si); err != nil {
			t.Fatalf("stack item of a valid manifest does not decode: %v", err)
		}
		if _, err := json.Marshal(&m2); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzFromStackItem decodes stored manifest bytes.
func FuzzFromStackItem(f *testing.F) {
	m := validManifest()
	si, _ := m.ToStackItem()
	b, _ := stackitem.Serialize(si)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := stackitem.Deserialize(data)
		if err != nil {
			return
		}
		var m Manifest
		if m.FromStackItem(item) != nil {
			return
		}
		_ = m.IsValid(hash.Uint160{}, true)
		if _, err := m.ToStackItem(); err != nil {
			t.Fatal(err)
		}
	})
}
