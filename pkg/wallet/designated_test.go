package wallet

import (
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

func TestDesignatedKey(t *testing.T) {
	var ks []*keys.PrivateKey
	for range 3 {
		k, err := keys.NewPrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
	}
	other, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	nodes := []*keys.PublicKey{other.PublicKey(), ks[2].PublicKey(), ks[0].PublicKey()}
	// The first designated node we hold a key of wins, not our first key.
	if i, k := DesignatedKey(ks, nodes); i != 1 || k != ks[2] {
		t.Errorf("got %d %v, want 1 and the third key", i, k)
	}
	if i, k := DesignatedKey(ks, nodes[:1]); i != -1 || k != nil {
		t.Errorf("no key held: got %d %v", i, k)
	}
	if i, k := DesignatedKey(nil, nodes); i != -1 || k != nil {
		t.Errorf("no keys: got %d %v", i, k)
	}
}
