package wallet

import "github.com/n3node/n3node/pkg/crypto/keys"

// DesignatedKey returns the first of nodes (a designation of RoleManagement,
// in its order) whose private key is among ks, and its index in nodes; -1
// and nil when ks holds none of them. It is how the node's services (notary,
// oracle, state roots) choose the key they sign with.
func DesignatedKey(ks []*keys.PrivateKey, nodes []*keys.PublicKey) (int, *keys.PrivateKey) {
	for i, n := range nodes {
		for _, k := range ks {
			if k.PublicKey().Equal(n) {
				return i, k
			}
		}
	}
	return -1, nil
}
