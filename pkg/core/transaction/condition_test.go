package transaction_test

import (
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

type fakeCtx struct {
	calling, current hash.Uint160
	callingGroup     *keys.PublicKey
	currentGroup     *keys.PublicKey
	entry            bool
	err              error
}

func (c *fakeCtx) GetCallingScriptHash() hash.Uint160 { return c.calling }
func (c *fakeCtx) GetCurrentScriptHash() hash.Uint160 { return c.current }
func (c *fakeCtx) CallingScriptHasGroup(k *keys.PublicKey) (bool, error) {
	return c.callingGroup != nil && c.callingGroup.Equal(k), c.err
}
func (c *fakeCtx) CurrentScriptHasGroup(k *keys.PublicKey) (bool, error) {
	return c.currentGroup != nil && c.currentGroup.Equal(k), c.err
}
func (c *fakeCtx) IsCalledByEntry() bool { return c.entry }

func TestConditionMatch(t *testing.T) {
	k, _ := keys.NewPrivateKey()
	g := k.PublicKey()
	ctx := &fakeCtx{calling: hash.Uint160{1}, current: hash.Uint160{2}, currentGroup: g, entry: true}
	T := transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true}
	F := transaction.WitnessCondition{Type: transaction.ConditionBoolean}
	cases := []struct {
		c    transaction.WitnessCondition
		want bool
	}{
		{T, true},
		{F, false},
		{transaction.WitnessCondition{Type: transaction.ConditionNot, Sub: []transaction.WitnessCondition{F}}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionAnd, Sub: []transaction.WitnessCondition{T, F}}, false},
		{transaction.WitnessCondition{Type: transaction.ConditionAnd, Sub: []transaction.WitnessCondition{T, T}}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionOr, Sub: []transaction.WitnessCondition{F, T}}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionOr, Sub: []transaction.WitnessCondition{F, F}}, false},
		{transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: hash.Uint160{2}}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: hash.Uint160{1}}, false},
		{transaction.WitnessCondition{Type: transaction.ConditionCalledByContract, Hash: hash.Uint160{1}}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionGroup, Group: g}, true},
		{transaction.WitnessCondition{Type: transaction.ConditionCalledByGroup, Group: g}, false},
		{transaction.WitnessCondition{Type: transaction.ConditionCalledByEntry}, true},
	}
	for i, c := range cases {
		got, err := c.c.Match(ctx)
		if err != nil || got != c.want {
			t.Errorf("case %d (%s): %v, %v", i, c.c.Type, got, err)
		}
	}
	ctx.err = errors.New("boom")
	not := transaction.WitnessCondition{Type: transaction.ConditionNot, Sub: []transaction.WitnessCondition{{Type: transaction.ConditionGroup, Group: g}}}
	if got, err := not.Match(ctx); err == nil || got {
		t.Error("Not must propagate the error and return false")
	}
}
