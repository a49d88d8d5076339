package result

import (
	"encoding/json"
	"strconv"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Transfer lists are the largest token answers (up to 1000 entries); they
// are written by appending, in the field order and forms of the struct
// tags (which decoding uses).

// appendUint160/256 write "0x" + reversed hex.
func appendUint160(dst []byte, u hash.Uint160) []byte {
	dst = append(dst, `"0x`...)
	return append(append(dst, u.StringLE()...), '"')
}

func appendUint256(dst []byte, u hash.Uint256) []byte {
	dst = append(dst, `"0x`...)
	return append(append(dst, u.StringLE()...), '"')
}

// appendPlain writes a string that needs no escaping (addresses, decimal
// numbers, hex).
func appendPlain(dst []byte, s string) []byte {
	return append(append(append(dst, '"'), s...), '"')
}

func (t *NEP17Transfer) appendJSON(dst []byte) []byte {
	return appendTransfer(dst, t, false, "")
}

func (t *NEP11Transfer) appendJSON(dst []byte) []byte {
	t17 := NEP17Transfer{Timestamp: t.Timestamp, Asset: t.Asset, Address: t.Address, Amount: t.Amount,
		Index: t.Index, NotifyIndex: t.NotifyIndex, TxHash: t.TxHash}
	return appendTransfer(dst, &t17, true, t.ID)
}

// appendTransfer writes the fields both transfer kinds share, with the
// NEP-11 token id (nft) after the address.
func appendTransfer(dst []byte, t *NEP17Transfer, nft bool, id string) []byte {
	dst = append(dst, `{"timestamp":`...)
	dst = strconv.AppendUint(dst, t.Timestamp, 10)
	dst = append(dst, `,"assethash":`...)
	dst = appendUint160(dst, t.Asset)
	if t.Address != "" {
		dst = append(dst, `,"transferaddress":`...)
		dst = appendPlain(dst, t.Address)
	}
	if nft {
		dst = append(dst, `,"tokenid":`...)
		dst = appendPlain(dst, id)
	}
	dst = append(dst, `,"amount":`...)
	dst = appendPlain(dst, t.Amount)
	dst = append(dst, `,"blockindex":`...)
	dst = strconv.AppendUint(dst, uint64(t.Index), 10)
	dst = append(dst, `,"transfernotifyindex":`...)
	dst = strconv.AppendUint(dst, uint64(t.NotifyIndex), 10)
	dst = append(dst, `,"txhash":`...)
	dst = appendUint256(dst, t.TxHash)
	return append(dst, '}')
}

func appendList[T any](dst []byte, name string, list []T, app func(*T, []byte) []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	dst = append(dst, `":`...)
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = app(&list[i], dst)
	}
	return append(dst, ']')
}

// MarshalJSON writes {"sent", "received", "address"}.
func (t NEP17Transfers) MarshalJSON() ([]byte, error) {
	return appendTransfers(t.Sent, t.Received, t.Address, 200, (*NEP17Transfer).appendJSON), nil
}

// MarshalJSON writes {"sent", "received", "address"}.
func (t NEP11Transfers) MarshalJSON() ([]byte, error) {
	return appendTransfers(t.Sent, t.Received, t.Address, 220, (*NEP11Transfer).appendJSON), nil
}

// appendTransfers writes a transfers answer, sizing the buffer at about
// per bytes an entry.
func appendTransfers[T any](sent, received []T, address string, per int, app func(*T, []byte) []byte) []byte {
	dst := make([]byte, 0, 64+per*(len(sent)+len(received)))
	dst = append(dst, '{')
	dst = appendList(dst, "sent", sent, app)
	dst = append(dst, ',')
	dst = appendList(dst, "received", received, app)
	dst = append(dst, `,"address":`...)
	dst = appendPlain(dst, address)
	return append(dst, '}')
}

type nep17TransfersAux NEP17Transfers

// UnmarshalJSON reads the struct-tag form.
func (t *NEP17Transfers) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, (*nep17TransfersAux)(t))
}

type nep11TransfersAux NEP11Transfers

// UnmarshalJSON reads the struct-tag form.
func (t *NEP11Transfers) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, (*nep11TransfersAux)(t))
}
