package core_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/stretchr/testify/require"
)

// The ledger's tests run on internal/testchain's signed single-validator
// chain (package core_test imports it; the in-package tests cannot, as
// testchain imports pkg/core).

func newKey(t testing.TB, seed byte) *keys.PrivateKey {
	b := make([]byte, 32)
	b[0], b[31] = 1, seed
	k, err := keys.NewPrivateKeyFromBytes(b)
	require.NoError(t, err)
	return k
}
