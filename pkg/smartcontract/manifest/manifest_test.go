package manifest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

var testManifests = []string{
	"management_helper1.manifest.json",
	"management_helper2.manifest.json",
	"oracle.manifest.json",
	"verify.manifest.json",
	"nns.manifest.json",
	"nex.manifest.json",
}

func TestManifestFilesRoundTrip(t *testing.T) {
	n := 0
	for _, name := range testManifests {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", name))
			require.NoError(t, err)
			raw = bytes.TrimSpace(raw)
			m, err := FromJSON(raw)
			require.NoError(t, err)
			require.NoError(t, m.IsValid(hash.Uint160{}, true))
			out, err := json.Marshal(m)
			require.NoError(t, err)
			if !strings.HasPrefix(name, "n") && name != "verify.manifest.json" { // written by neo-go 0.120-era compilers
				require.Equal(t, string(raw), string(out), "neo-go key order and form")
			} else { // written by C# tools or older neo-go: same content
				m3, err := FromJSON(out)
				require.NoError(t, err)
				out3, err := json.Marshal(m3)
				require.NoError(t, err)
				require.Equal(t, string(out), string(out3))
			}

			// Stack item round trip through the binary serializer.
			si, err := m.ToStackItem()
			require.NoError(t, err)
			data, err := stackitem.Serialize(si)
			require.NoError(t, err)
			si2, err := stackitem.Deserialize(data)
			require.NoError(t, err)
			var m2 Manifest
			require.NoError(t, m2.FromStackItem(si2))
			si3, err := m2.ToStackItem()
			require.NoError(t, err)
			data2, err := stackitem.Serialize(si3)
			require.NoError(t, err)
			require.Equal(t, data, data2)
			require.NoError(t, m2.IsValid(hash.Uint160{}, true))
			n++
		})
	}
	require.Equal(t, len(testManifests), n)
}

func TestExtraVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/extra_vectors.json")
	require.NoError(t, err)
	var vecs []struct{ In, Out string }
	require.NoError(t, json.Unmarshal(raw, &vecs))
	require.NotEmpty(t, vecs)
	for _, v := range vecs {
		require.Equal(t, v.Out, string(extraBytes([]byte(v.In))), "input %q", v.In)
	}
	require.Equal(t, "null", string(extraBytes(nil)))
	require.Equal(t, "null", string(extraBytes([]byte("null"))))
	require.Equal(t, "null", string(extraBytes([]byte("{bad"))))
}

func TestExtraStored(t *testing.T) {
	m := DefaultManifest("x")
	m.ABI.Methods = []Method{{Name: "m", ReturnType: smartcontract.VoidType}}
	require.NoError(t, json.Unmarshal([]byte(`{"name":"x","abi":{"methods":[{"name":"m","offset":0,"parameters":[],"returntype":"Void","safe":false}],"events":[]},"features":{},"groups":[],"permissions":[],"supportedstandards":[],"trusts":[],"extra":{ "b" : "<é>", "a": 1.0 }}`), m))
	si, err := m.ToStackItem()
	require.NoError(t, err)
	extra := si.(*stackitem.Array).Get(7).(*stackitem.ByteString).Bytes()
	require.Equal(t, `{"b":"\u003C\u00E9\u003E","a":1.0}`, string(extra))
}

func validManifest() *Manifest {
	m := NewManifest("Test")
	m.ABI.Methods = []Method{{Name: "main", Offset: 0, ReturnType: smartcontract.AnyType,
		Parameters: []Parameter{NewParameter("a", smartcontract.IntegerType)}}}
	return m
}

func TestIsValid(t *testing.T) {
	require.NoError(t, validManifest().IsValid(hash.Uint160{}, true))

	cases := map[string]func(m *Manifest){
		"no name":            func(m *Manifest) { m.Name = "" },
		"empty standard":     func(m *Manifest) { m.SupportedStandards = []string{""} },
		"dup standards":      func(m *Manifest) { m.SupportedStandards = []string{"NEP-17", "NEP-17"} },
		"no methods":         func(m *Manifest) { m.ABI.Methods = nil },
		"empty method name":  func(m *Manifest) { m.ABI.Methods[0].Name = "" },
		"negative offset":    func(m *Manifest) { m.ABI.Methods[0].Offset = -1 },
		"bad return type":    func(m *Manifest) { m.ABI.Methods[0].ReturnType = 0x42 },
		"void parameter":     func(m *Manifest) { m.ABI.Methods[0].Parameters[0].Type = smartcontract.VoidType },
		"bad parameter type": func(m *Manifest) { m.ABI.Methods[0].Parameters[0].Type = 0x42 },
		"empty param name":   func(m *Manifest) { m.ABI.Methods[0].Parameters[0].Name = "" },
		"dup param names": func(m *Manifest) {
			m.ABI.Methods[0].Parameters = append(m.ABI.Methods[0].Parameters, NewParameter("a", smartcontract.BoolType))
		},
		"dup methods": func(m *Manifest) {
			m.ABI.Methods = append(m.ABI.Methods, Method{Name: "main", Offset: 1, ReturnType: smartcontract.VoidType,
				Parameters: []Parameter{NewParameter("b", smartcontract.IntegerType)}})
		},
		"dup events": func(m *Manifest) {
			m.ABI.Events = []Event{{Name: "e"}, {Name: "e", Parameters: []Parameter{NewParameter("x", smartcontract.AnyType)}}}
		},
		"empty event name": func(m *Manifest) { m.ABI.Events = []Event{{Name: ""}} },
		"features":         func(m *Manifest) { m.Features = json.RawMessage(`{"a":1}`) },
		"null features":    func(m *Manifest) { m.Features = nil },
		"null groups":      func(m *Manifest) { m.Groups = nil },
		"null trusts":      func(m *Manifest) { m.Trusts = WildPermissionDescs{} },
		"dup trusts": func(m *Manifest) {
			m.Trusts.Add(PermissionDesc{Type: PermissionHash, Hash: hash.Uint160{1}})
			m.Trusts.Add(PermissionDesc{Type: PermissionHash, Hash: hash.Uint160{1}})
		},
		"dup permissions": func(m *Manifest) {
			m.Permissions = []Permission{*NewPermission(PermissionWildcard), *NewPermission(PermissionWildcard)}
		},
		"empty permission method": func(m *Manifest) {
			p := NewPermission(PermissionWildcard)
			p.Methods.Value = []string{""}
			m.Permissions = []Permission{*p}
		},
		"dup permission methods": func(m *Manifest) {
			p := NewPermission(PermissionWildcard)
			p.Methods.Value = []string{"a", "a"}
			m.Permissions = []Permission{*p}
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			m := validManifest()
			f(m)
			require.ErrorIs(t, m.IsValid(hash.Uint160{}, false), ErrInvalid)
		})
	}
	// Same names with different parameter counts are fine.
	m := validManifest()
	m.ABI.Methods = append(m.ABI.Methods, Method{Name: "main", ReturnType: smartcontract.VoidType})
	require.NoError(t, m.IsValid(hash.Uint160{}, true))
	// Whitespace in features is ignored.
	m.Features = json.RawMessage("{ \n}")
	require.NoError(t, m.IsValid(hash.Uint160{}, true))
}

func TestGroups(t *testing.T) {
	k1, err := keys.NewPrivateKeyFromHex("7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344")
	require.NoError(t, err)
	k2, err := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	require.NoError(t, err)
	h := hash.Uint160{1, 2, 3}
	m := validManifest()
	m.Groups = []Group{{PublicKey: k1.PublicKey(), Signature: k1.Sign(h[:])}}
	require.NoError(t, m.IsValid(h, true))
	require.ErrorIs(t, m.IsValid(hash.Uint160{3}, true), ErrInvalidGroup)
	require.NoError(t, m.IsValid(hash.Uint160{}, true)) // zero hash: signatures not checked

	m.Groups = append(m.Groups, Group{PublicKey: k2.PublicKey(), Signature: k2.Sign(h[:])})
	require.NoError(t, m.IsValid(h, true))
	m.Groups = append(m.Groups, m.Groups[0])
	require.ErrorIs(t, m.IsValid(h, true), ErrInvalidGroup)

	// JSON round trip.
	m.Groups = m.Groups[:2]
	data, err := json.Marshal(m)
	require.NoError(t, err)
	m2, err := FromJSON(data)
	require.NoError(t, err)
	require.NoError(t, m2.IsValid(h, true))
	require.True(t, Groups(m2.Groups).Contains(k2.PublicKey()))

	// Bad signature length in JSON.
	bad := strings.Replace(string(data), `"signature":"`, `"signature":"AAAA`, 1)
	_, err = FromJSON([]byte(bad))
	require.Error(t, err)
}

func TestPermissionJSON(t *testing.T) {
	k, err := keys.NewPublicKeyFromString("02028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef")
	require.NoError(t, err)
	h, err := hash.Uint160DecodeStringLE("ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5")
	require.NoError(t, err)
	cases := []struct {
		in   string
		want PermissionDesc
	}{
		{`"*"`, PermissionDesc{Type: PermissionWildcard}},
		{`"0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"`, PermissionDesc{Type: PermissionHash, Hash: h}},
		{`"ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"`, PermissionDesc{Type: PermissionHash, Hash: h}},
		{`"02028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef"`, PermissionDesc{Type: PermissionGroup, Group: k}},
	}
	for _, c := range cases {
		var d PermissionDesc
		require.NoError(t, json.Unmarshal([]byte(c.in), &d), c.in)
		require.True(t, d.Equals(c.want), c.in)
	}
	for _, bad := range []string{`"**"`, `"1xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"`, `1`, `""`, `"zz"`} {
		var d PermissionDesc
		require.Error(t, json.Unmarshal([]byte(bad), &d), bad)
	}

	// Methods: "*" and null are wildcards, a list is not.
	var p Permission
	require.NoError(t, json.Unmarshal([]byte(`{"contract":"*","methods":null}`), &p))
	require.True(t, p.Methods.IsWildcard())
	require.NoError(t, json.Unmarshal([]byte(`{"contract":"*","methods":"*"}`), &p))
	require.True(t, p.Methods.IsWildcard())
	p = Permission{}
	require.NoError(t, json.Unmarshal([]byte(`{"contract":"*","methods":[]}`), &p))
	require.False(t, p.Methods.IsWildcard())
	out, err := json.Marshal(&p)
	require.NoError(t, err)
	require.Equal(t, `{"contract":"*","methods":[]}`, string(out))
}

func TestIsAllowed(t *testing.T) {
	k, err := keys.NewPublicKeyFromString("02028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef")
	require.NoError(t, err)
	target := hash.Uint160{7}
	inGroup := &Manifest{Groups: []Group{{PublicKey: k}}}
	outGroup := &Manifest{Groups: []Group{}}
	some := WildStrings{Value: []string{"a"}}

	cases := []struct {
		p      Permission
		m      *Manifest
		method string
		ok     bool
	}{
		{Permission{Contract: PermissionDesc{Type: PermissionWildcard}}, outGroup, "x", true},
		{Permission{Contract: PermissionDesc{Type: PermissionWildcard}, Methods: some}, outGroup, "x", false},
		{Permission{Contract: PermissionDesc{Type: PermissionWildcard}, Methods: some}, outGroup, "a", true},
		{Permission{Contract: PermissionDesc{Type: PermissionHash, Hash: target}}, outGroup, "x", true},
		{Permission{Contract: PermissionDesc{Type: PermissionHash, Hash: hash.Uint160{8}}}, outGroup, "x", false},
		{Permission{Contract: PermissionDesc{Type: PermissionHash, Hash: target}, Methods: some}, outGroup, "x", false},
		{Permission{Contract: PermissionDesc{Type: PermissionGroup, Group: k}}, inGroup, "x", true},
		{Permission{Contract: PermissionDesc{Type: PermissionGroup, Group: k}}, outGroup, "x", false},
		// neo-go: a group permission ignores its method list (C# checks it).
		{Permission{Contract: PermissionDesc{Type: PermissionGroup, Group: k}, Methods: some}, inGroup, "x", true},
	}
	for i, c := range cases {
		require.Equal(t, c.ok, c.p.IsAllowed(target, c.m, c.method), "case %d", i)
	}
	caller := &Manifest{Permissions: []Permission{cases[5].p, cases[6].p}}
	require.True(t, caller.CanCall(target, inGroup, "x"))
	require.False(t, caller.CanCall(target, outGroup, "x"))
	require.True(t, caller.CanCall(target, outGroup, "a"))
}

func TestTypeMatches(t *testing.T) {
	b20 := stackitem.NewByteString(make([]byte, 20))
	cases := []struct {
		pt   smartcontract.ParamType
		item stackitem.Item
		ok   bool
	}{
		{smartcontract.AnyType, stackitem.NewInt(1), true},
		{smartcontract.AnyType, stackitem.NewPointer(0, nil), false},
		{smartcontract.BoolType, stackitem.Bool(true), true},
		{smartcontract.BoolType, stackitem.NewInt(1), false},
		{smartcontract.IntegerType, stackitem.NewInt(1), true},
		{smartcontract.IntegerType, stackitem.Null{}, false},
		{smartcontract.ByteArrayType, stackitem.Null{}, true},
		{smartcontract.ByteArrayType, stackitem.NewBuffer([]byte{1}), true},
		{smartcontract.StringType, stackitem.NewByteString([]byte("ok")), true},
		{smartcontract.StringType, stackitem.NewByteString([]byte{0xff}), false},
		{smartcontract.StringType, stackitem.Null{}, false},
		{smartcontract.Hash160Type, b20, true},
		{smartcontract.Hash160Type, stackitem.Null{}, true},
		{smartcontract.Hash160Type, stackitem.NewByteString(make([]byte, 21)), false},
		{smartcontract.Hash256Type, stackitem.NewBuffer(make([]byte, 32)), true},
		{smartcontract.PublicKeyType, stackitem.NewByteString(make([]byte, 33)), true},
		{smartcontract.SignatureType, stackitem.NewByteString(make([]byte, 64)), true},
		{smartcontract.SignatureType, stackitem.NewInt(1), false},
		{smartcontract.ArrayType, stackitem.NewStruct(nil), true},
		{smartcontract.ArrayType, stackitem.NewMap(), false},
		{smartcontract.MapType, stackitem.NewMap(), true},
		{smartcontract.InteropInterfaceType, stackitem.NewInterop(1), true},
		{smartcontract.VoidType, stackitem.Null{}, false},
	}
	for i, c := range cases {
		require.Equal(t, c.ok, TypeMatches(c.pt, c.item), "case %d (%s)", i, c.pt)
	}
	e := Event{Name: "E", Parameters: []Parameter{NewParameter("a", smartcontract.IntegerType)}}
	require.NoError(t, e.CheckCompliance([]stackitem.Item{stackitem.NewInt(5)}))
	require.Error(t, e.CheckCompliance(nil))
	require.Error(t, e.CheckCompliance([]stackitem.Item{stackitem.Bool(true)}))
}

func TestParamTypeJSON(t *testing.T) {
	var m Method
	require.NoError(t, json.Unmarshal([]byte(`{"name":"a","offset":0,"parameters":[{"name":"x","type":"int"},{"name":"y","type":"BYTESTRING"}],"returntype":"bool","safe":true}`), &m))
	require.Equal(t, smartcontract.IntegerType, m.Parameters[0].Type)
	require.Equal(t, smartcontract.ByteArrayType, m.Parameters[1].Type)
	require.Equal(t, smartcontract.BoolType, m.ReturnType)
	require.Error(t, json.Unmarshal([]byte(`{"name":"a","returntype":"Nope"}`), &m))
}

func TestFromStackItemErrors(t *testing.T) {
	m := validManifest()
	si, err := m.ToStackItem()
	require.NoError(t, err)
	fields := si.(*stackitem.Array).Items()
	var bad []stackitem.Item
	for i := range fields {
		c := make([]stackitem.Item, len(fields))
		copy(c, fields)
		c[i] = stackitem.NewInt(1)
		bad = append(bad, stackitem.NewStruct(c))
	}
	bad = append(bad, stackitem.NewArray(fields), stackitem.NewStruct(fields[:7]), stackitem.Null{})
	for i, b := range bad {
		var m2 Manifest
		if i == 0 {
			// The name may be any primitive: Integer 1 is the string "\x01".
			require.NoError(t, m2.FromStackItem(b))
			continue
		}
		// Extra (i == 7): Integer 1 gives the bytes "\x01", not JSON: refused,
		// as C#'s JToken.Parse refuses it.
		require.Error(t, m2.FromStackItem(b), "case %d", i)
	}
}
