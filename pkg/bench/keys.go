package bench

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// DefaultSenderWIF is the key that signs the workload: the sender of every
// transfer (and, by default, its receiver). It is the one neo-bench uses, a
// public neo-go test vector: never hold real funds with it.
const DefaultSenderWIF = "KxhEDBQyyEFymvfJD96q8stMbJMbZUb6D1PmXqBWZDU2WvbvVs9o"

// Committee keys of neo-go's private networks (public test keys). The
// single-node privnet's validator is the key of wallet1_solo.json
// (02b3622b…); the 4-node privnet's are the keys of wallet1..wallet4.json.
var (
	SingleNodeWIFs = []string{"KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY"}
	FourNodeWIFs   = []string{
		"KzfPUYDC9n2yf4fK5ro4C8KMcdeXtFuEnStycbZgX3GomiUsvX6W",
		"KzgWE3u3EDp13XPXXuTKZxeJ3Gi8Bsm8f9ijY3ZsCKKRvZUo1Cdn",
		"KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY",
		"L2oEXKRAAMiPEZukwR5ho2S6SMeQLhcK9mF71ZnF7GvT8dU4Kkgz",
	}
)

// CommitteeWIFs returns the default validator keys for a network with n
// standby validators (1 or 4), or nil.
func CommitteeWIFs(n int) []string {
	switch n {
	case 1:
		return SingleNodeWIFs
	case 4:
		return FourNodeWIFs
	}
	return nil
}

// Multisig is the account holding a network's initial NEO and GAS: the BFT
// multi-signature account of the standby validators (m = n - (n-1)/3), which
// the genesis block mints to (C# NeoToken/GasToken.Initialize).
type Multisig struct {
	Keys    []*keys.PrivateKey // in the script's key order
	M       int
	Script  []byte
	Account hash.Uint160
}

// NewMultisig builds the BFT multisig account of the validators whose keys
// are given as WIFs.
func NewMultisig(wifs []string) (*Multisig, error) {
	if len(wifs) == 0 {
		return nil, fmt.Errorf("bench: no committee keys")
	}
	privs := make([]*keys.PrivateKey, len(wifs))
	pubs := make([]*keys.PublicKey, len(wifs))
	for i, w := range wifs {
		k, err := keys.NewPrivateKeyFromWIF(w)
		if err != nil {
			return nil, fmt.Errorf("bench: committee key %d: %w", i, err)
		}
		privs[i], pubs[i] = k, k.PublicKey()
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	if err != nil {
		return nil, err
	}
	_, sorted, ok := smartcontract.ParseMultiSigContract(script)
	if !ok {
		return nil, fmt.Errorf("bench: cannot parse the committee script")
	}
	// Signatures must come in the script's key order.
	ordered := make([]*keys.PrivateKey, 0, len(privs))
	for _, p := range sorted {
		for _, k := range privs {
			if k.PublicKey().Equal(p) {
				ordered = append(ordered, k)
				break
			}
		}
	}
	return &Multisig{
		Keys:    ordered,
		M:       smartcontract.GetDefaultHonestNodeCount(len(wifs)),
		Script:  script,
		Account: hash.Hash160(script),
	}, nil
}

// Sign sets the transaction's only witness: M signatures of the first M
// keys, in script order.
func (m *Multisig) Sign(tx *transaction.Transaction, magic uint32) {
	sd := tx.SignData(magic)
	inv := make([]byte, 0, m.M*smartcontract.SignatureInvocationSize)
	for _, k := range m.Keys[:m.M] {
		inv = append(inv, byte(opcode.PUSHDATA1), 64)
		inv = append(inv, k.Sign(sd[:])...)
	}
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: m.Script}}
}

// signSingle sets the transaction's only witness for a single-signature key.
func signSingle(tx *transaction.Transaction, k *keys.PrivateKey, verification []byte, magic uint32) {
	sd := tx.SignData(magic)
	inv := make([]byte, 0, smartcontract.SignatureInvocationSize)
	inv = append(inv, byte(opcode.PUSHDATA1), 64)
	inv = append(inv, k.Sign(sd[:])...)
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: verification}}
}
