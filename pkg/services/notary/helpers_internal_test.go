package notary

import (
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

func testKeys(t testing.TB, n int) []*keys.PrivateKey {
	res := make([]*keys.PrivateKey, n)
	for i := range res {
		b := make([]byte, 32)
		b[0], b[31] = 1, byte(i+1)
		k, err := keys.NewPrivateKeyFromBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = k
	}
	return res
}

func pubsOf(ks []*keys.PrivateKey) []*keys.PublicKey {
	res := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		res[i] = k.PublicKey()
	}
	return res
}
