package transaction

import (
	"crypto/sha256"

	nio "github.com/n3node/n3node/pkg/io"
)

// DecodeHashableFields decodes the unsigned part of a transaction, as
// EncodeHashableFields writes it (and as parameter-context files carry it
// in "data"), with the checks of full decoding. The result has no
// witnesses; its hash is set, its size is not cached (add the witnesses
// first). b is copied; the result does not alias it.
func DecodeHashableFields(b []byte) (*Transaction, error) {
	buf := append([]byte(nil), b...)
	t := &Transaction{}
	r := nio.NewBinReaderFromBuf(buf)
	d := decoder{r: r}
	t.decodeUnsigned(&d)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, ErrTrailingBytes
	}
	if d.nonCanonical {
		t.hash = t.computeHash()
	} else {
		t.hash = sha256.Sum256(buf)
	}
	t.hashed = true
	return t, nil
}
