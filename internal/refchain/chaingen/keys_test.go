package chaingen

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"math/big"
	"testing"
)

// The single-node privnet validator of neo-go's .docker/wallets/wallet1_solo.json.
const (
	validatorWIF      = "KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY"
	validatorPub      = "02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"
	validatorAddress  = "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"
	validatorScript   = "DCECs2Ir9AF73+MXxYrtX0x1PyBrfbiWBG+n13S7xL9/jcJBVuezJw=="
	committeeAddress  = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"
	committeeScript   = "EQwhArNiK/QBe9/jF8WK7V9MdT8ga324lgRvp9d0u8S/f43CEUGe0Nw6"
	fourNodeMultisig  = "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"
	fourNodeMultisigS = "EwwhAhA6f33QFlWFl/eWDSfFFqQ5T9loueZRVetLAT5AQEBuDCECp7xV/oaE4BGXaNEEujB5W9zIZhnoZK3SYVZyPtGFzWIMIQKzYiv0AXvf4xfFiu1fTHU/IGt9uJYEb6fXdLvEv3+NwgwhA9kMB99j5pDOd5EuEKtRrMlEtmhgI3tgjE+PgwnnHuaZFEGe0Nw6"
)

func TestValidatorKey(t *testing.T) {
	k, err := KeyFromWIF(validatorWIF)
	if err != nil {
		t.Fatal(err)
	}
	if k.PubHex() != validatorPub {
		t.Fatalf("pub %s", k.PubHex())
	}
	if k.WIF() != validatorWIF {
		t.Fatalf("WIF round trip %s", k.WIF())
	}
	v := NewSigAccount("V", k)
	if got := base64.StdEncoding.EncodeToString(v.Verification); got != validatorScript {
		t.Fatalf("script %s", got)
	}
	if v.Address() != validatorAddress {
		t.Fatalf("address %s", v.Address())
	}
	m := NewMultisigAccount("M", 1, []*Key{k})
	if got := base64.StdEncoding.EncodeToString(m.Verification); got != committeeScript {
		t.Fatalf("multisig script %s", got)
	}
	if m.Address() != committeeAddress {
		t.Fatalf("multisig address %s", m.Address())
	}
}

func TestMultisigOrder(t *testing.T) {
	// The 3-of-4 privnet multisig: its script lists the keys sorted.
	raw, _ := base64.StdEncoding.DecodeString(fourNodeMultisigS)
	var pubs [][]byte
	for i := 1; i+35 <= len(raw); i += 35 {
		if raw[i] != byte(PUSHDATA1) || raw[i+1] != 33 {
			break
		}
		pubs = append(pubs, raw[i+2:i+35])
	}
	if len(pubs) != 4 {
		t.Fatalf("parsed %d keys", len(pubs))
	}
	rev := [][]byte{pubs[3], pubs[1], pubs[2], pubs[0]}
	if got := base64.StdEncoding.EncodeToString(MultisigScript(3, rev)); got != fourNodeMultisigS {
		t.Fatalf("script %s", got)
	}
}

func TestSignVerifies(t *testing.T) {
	k, _ := KeyFromWIF(validatorWIF)
	msg := []byte("n3node refchain")
	sig, err := k.Sign(msg)
	if err != nil {
		t.Fatal(err)
	}
	sig2, _ := k.Sign(msg)
	if string(sig) != string(sig2) {
		t.Fatal("signature is not deterministic")
	}
	d := sha256.Sum256(msg)
	if !ecdsa.Verify(&k.priv.PublicKey, d[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("signature does not verify")
	}
}
