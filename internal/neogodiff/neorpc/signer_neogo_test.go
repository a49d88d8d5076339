package neorpc_test

import (
	"bytes"
	"encoding/json"
	"testing"

	ngrpc "github.com/nspcc-dev/neo-go/pkg/neorpc"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"

	"github.com/n3node/n3node/pkg/neorpc"
)

var signerSeeds = []string{
	`[]`, `["0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"]`, `["cf76e28bd0062c4a478ee35561011319f3cfa4d2", "0x0000000000000000000000000000000000000001"]`,
	`[{"account":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2","scopes":"CalledByEntry"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"Global"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CalledByEntry, Global"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"Global, CalledByEntry"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"Foo"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":1}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":129}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":2}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":300}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":true}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"}]`,
	`[{"account":"bad","scopes":"None"}]`,
	`[{"account":5}]`, `[5]`, `["0xcf76e28bd0062c4a478ee35561011319f3cfa4d2", {"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CustomContracts","allowedcontracts":["0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CustomContracts","allowedcontracts":["0x01"]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CustomContracts","allowedcontracts":"x"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CustomGroups","allowedgroups":["02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"CustomGroups","allowedgroups":["02b3"]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"WitnessRules","rules":[{"action":"Allow","condition":{"type":"Boolean","expression":true}}]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","scopes":"WitnessRules","rules":[{"action":"Deny","condition":{"type":"CalledByContract","hash":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"}}]}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","invocation":"AAE=","verification":"AgM="}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","invocation":"!"}]`,
	`[{"account":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","extra":1}]`,
	`"x"`, `null`, `{}`,
	`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]`,
}

func checkSignersAgainstNeoGo(t *testing.T, raw []byte) {
	t.Helper()
	if !json.Valid(raw) {
		return
	}
	raw = bytes.TrimSpace(raw)
	p := neorpc.Param{RawMessage: raw}
	signers, witnesses, err := p.GetSignersWithWitnesses()
	var (
		refS   any
		refErr error
		panics bool
	)
	func() {
		defer func() { panics = recover() != nil }()
		rp := ngparams.Param{RawMessage: bytes.Clone(raw)}
		s, w, e := rp.GetSignersWithWitnesses()
		refErr = e
		if e == nil {
			out := make([]ngrpc.SignerWithWitness, len(s))
			for i := range s {
				out[i] = ngrpc.SignerWithWitness{Signer: s[i], Witness: w[i]}
			}
			refS = out
		}
	}()
	if panics {
		return // neo-go panics on some short addresses; see TestAddressVectorsNeoGo
	}
	if (err != nil) != (refErr != nil) {
		t.Fatalf("%s: ours %v, neo-go %v", raw, err, refErr)
	}
	if err != nil {
		// Public keys and witness rules are decoded by our keys and
		// transaction packages, whose error texts are their own (a known,
		// documented difference in -32602 data only).
		lower := bytes.ToLower(raw)
		nested := bytes.Contains(lower, []byte("allowedgroups")) || bytes.Contains(lower, []byte("rules")) ||
			bytes.Contains(raw, []byte(`\u`))
		if err.Error() != refErr.Error() && !nested {
			t.Fatalf("%s:\n ours   %q\n neo-go %q", raw, err, refErr)
		}
		return
	}
	ours := make([]*neorpc.SignerWithWitness, len(signers))
	for i := range signers {
		ours[i] = &neorpc.SignerWithWitness{Signer: signers[i], Witness: witnesses[i]}
	}
	a, err := json.Marshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	refList := refS.([]ngrpc.SignerWithWitness)
	refPtrs := make([]*ngrpc.SignerWithWitness, len(refList))
	for i := range refList {
		refPtrs[i] = &refList[i]
	}
	b, err := json.Marshal(refPtrs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("%s:\n ours   %s\n neo-go %s", raw, a, b)
	}
}

func TestSignersMatchNeoGo(t *testing.T) {
	for _, s := range signerSeeds {
		checkSignersAgainstNeoGo(t, []byte(s))
	}
}

func FuzzSignersNeoGo(f *testing.F) {
	for _, s := range signerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkSignersAgainstNeoGo(t, raw)
	})
}

func TestFuncParamMatchesNeoGo(t *testing.T) {
	for _, s := range []string{
		`{"type":"Integer","value":5}`, `{"type":"int","value":"5"}`, `{"type":"Foo","value":1}`,
		`{"type":"Array","value":[{"type":"String","value":"a"}]}`, `{"value":1}`, `[]`, `{"type":5}`,
	} {
		p := neorpc.Param{RawMessage: []byte(s)}
		rp := ngparams.Param{RawMessage: []byte(s)}
		typ, val, err := p.GetFuncParam()
		rfp, rerr := rp.GetFuncParam()
		if (err == nil) != (rerr == nil) || (err != nil && err.Error() != rerr.Error()) {
			t.Fatalf("%s: ours %v, neo-go %v", s, err, rerr)
		}
		if err == nil && (int(typ) != int(rfp.Type) || !bytes.Equal(val.RawMessage, rfp.Value.RawMessage)) {
			t.Fatalf("%s: ours %v %s, neo-go %+v", s, typ, val.RawMessage, rfp)
		}
	}
}
