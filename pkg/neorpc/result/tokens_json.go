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
	dst = append(dst, `{"timestamp":`...)
	dst = strconv.AppendUint(dst, t.Timestamp, 10)
	dst = append(dst, `,"assethash":`...)
	dst = appendUint160(dst, t.Asset)
	if t.Address != "" {
		dst = append(dst, `,"transferaddress":`...)
		dst = appendPlain(dst, t.Address)
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

func (t *NEP11Transfer) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"timestamp":`...)
	dst = strconv.AppendUint(dst, t.Timestamp, 10)
	dst = append(dst, `,"assethash":`...)
	dst = appendUint160(dst, t.Asset)
	if t.Address != "" {
		dst = append(dst, `,"transferaddress":`...)
		dst = appendPlain(dst, t.Address)
	}
	dst = append(dst, `,"tokenid":`...)
	dst = appendPlain(dst, t.ID)
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
	dst := make([]byte, 0, 64+200*(len(t.Sent)+len(t.Received)))
	dst = append(dst, '{')
	dst = appendList(dst, "sent", t.Sent, (*NEP17Transfer).appendJSON)
	dst = append(dst, ',')
	dst = appendList(dst, "received", t.Received, (*NEP17Transfer).appendJSON)
	dst = append(dst, `,"address":`...)
	dst = appendPlain(dst, t.Address)
	return append(dst, '}'), nil
}

// MarshalJSON writes {"sent", "received", "address"}.
func (t NEP11Transfers) MarshalJSON() ([]byte, error) {
	dst := make([]byte, 0, 64+220*(len(t.Sent)+len(t.Received)))
	dst = append(dst, '{')
	dst = appendList(dst, "sent", t.Sent, (*NEP11Transfer).appendJSON)
	dst = append(dst, ',')
	dst = appendList(dst, "received", t.Received, (*NEP11Transfer).appendJSON)
	dst = append(dst, `,"address":`...)
	dst = appendPlain(dst, t.Address)
	return append(dst, '}'), nil
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
