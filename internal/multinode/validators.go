package multinode

import (
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// consensusOrder[i] is the validator (1..Validators, the wallet number)
// at consensus index i: dBFT numbers the validators in the order of their
// sorted public keys, and a block's PrimaryIndex is such an index.
var consensusOrder = func() [Validators]int {
	pubs := make([]*keys.PublicKey, Validators)
	for i, s := range StandbyCommittee {
		k, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			panic(err)
		}
		pubs[i] = k
	}
	sorted := append([]*keys.PublicKey(nil), pubs...)
	keys.SortPublicKeys(sorted)
	var order [Validators]int
	for i, k := range sorted {
		for j, p := range pubs {
			if p.Equal(k) {
				order[i] = j + 1
			}
		}
	}
	return order
}()

// ValidatorAt returns the validator (wallet number 1..Validators) at
// consensus index i (a block's PrimaryIndex), or 0 if i is out of range.
func ValidatorAt(i int) int {
	if i < 0 || i >= Validators {
		return 0
	}
	return consensusOrder[i]
}

// ConsensusIndex returns the consensus index of validator v (1..Validators),
// or -1.
func ConsensusIndex(v int) int {
	for i, w := range consensusOrder {
		if w == v {
			return i
		}
	}
	return -1
}

// PrimaryAt returns the validator that proposes block index at view 0
// (dBFT: index (height - view) mod validators).
func PrimaryAt(index uint32) int { return ValidatorAt(int(index % Validators)) }
