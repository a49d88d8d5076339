package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// MaxWorkload bounds the number of transactions of one workload: the nonce
// is the transaction's index and the cache file format counts in uint32.
const MaxWorkload = 1 << 30

// Params fix every byte of a workload. Two runs with equal Params send
// byte-identical transactions, whichever machine generated them.
type Params struct {
	Magic           uint32       // network magic the transactions are signed for
	Token           hash.Uint160 // NEP-17 contract called (NEO, GAS or another)
	SenderWIF       string       // signs every transaction and pays its fees
	To              hash.Uint160 // receiver; zero means the sender itself
	Amount          int64        // tokens per transfer (neo-bench: 1)
	Count           int          // number of transactions
	ValidUntilBlock uint32
	SystemFee       int64 // datoshi
	NetworkFee      int64 // datoshi
}

// Errors of workload generation and caching.
var (
	ErrParams     = errors.New("bench: invalid workload parameters")
	ErrCacheFile  = errors.New("bench: bad workload cache file")
	errCacheStale = errors.New("bench: workload cache file for other parameters")
)

func (p *Params) check() error {
	switch {
	case p.Count <= 0 || p.Count > MaxWorkload:
		return fmt.Errorf("%w: count %d (1..%d)", ErrParams, p.Count, MaxWorkload)
	case p.SystemFee < 0 || p.NetworkFee < 0:
		return fmt.Errorf("%w: negative fee", ErrParams)
	case p.ValidUntilBlock == 0:
		return fmt.Errorf("%w: ValidUntilBlock 0", ErrParams)
	}
	return nil
}

// Workload is a list of signed, encoded transactions of equal size
// (TransferScript with nonce = index, one CalledByEntry signer, fixed fees).
type Workload struct {
	Params Params
	Sender hash.Uint160
	TxSize int

	data []byte // Count × TxSize bytes
}

// Len returns the number of transactions.
func (w *Workload) Len() int { return w.Params.Count }

// Tx returns the encoding of transaction i. It aliases the workload's
// buffer: do not modify it.
func (w *Workload) Tx(i int) []byte {
	return w.data[i*w.TxSize : (i+1)*w.TxSize : (i+1)*w.TxSize]
}

// workloadTx builds and signs transaction i of a workload.
func workloadTx(p *Params, k *keys.PrivateKey, verif, script []byte, sender hash.Uint160, i int) *transaction.Transaction {
	tx := transaction.New(script, uint32(i), p.SystemFee, p.NetworkFee, p.ValidUntilBlock)
	tx.Signers = []transaction.Signer{{Account: sender, Scopes: transaction.CalledByEntry}}
	signSingle(tx, k, verif, p.Magic)
	return tx
}

// Generate signs the workload on all cores. progress, if not nil, is called
// now and then with the number of transactions done so far (from several
// goroutines).
func Generate(ctx context.Context, p Params, progress func(done int)) (*Workload, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	k, err := keys.NewPrivateKeyFromWIF(p.SenderWIF)
	if err != nil {
		return nil, fmt.Errorf("%w: sender: %w", ErrParams, err)
	}
	sender := k.ScriptHash()
	to := p.To
	if to.IsZero() {
		to = sender
	}
	script := TransferScript(p.Token, sender, to, p.Amount)
	verif := k.PublicKey().VerificationScript()
	first := workloadTx(&p, k, verif, script, sender, 0).Bytes()
	if first == nil {
		return nil, fmt.Errorf("%w: transaction does not encode", ErrParams)
	}
	w := &Workload{Params: p, Sender: sender, TxSize: len(first)}
	w.data = make([]byte, p.Count*w.TxSize)
	copy(w.data, first)

	const chunk = 1024
	var next, done atomic.Int64
	next.Store(1)
	done.Store(1)
	var (
		wg      sync.WaitGroup
		errOnce sync.Once
		genErr  error
	)
	fail := func(err error) { errOnce.Do(func() { genErr = err }) }
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for ctx.Err() == nil {
				lo := int(next.Add(chunk)) - chunk
				if lo >= p.Count {
					return
				}
				hi := min(lo+chunk, p.Count)
				for i := lo; i < hi; i++ {
					b := workloadTx(&p, k, verif, script, sender, i).Bytes()
					if len(b) != w.TxSize {
						fail(fmt.Errorf("bench: transaction %d has %d bytes, not %d", i, len(b), w.TxSize))
						return
					}
					copy(w.data[i*w.TxSize:], b)
				}
				d := done.Add(int64(hi - lo))
				if progress != nil {
					progress(int(d))
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if genErr != nil {
		return nil, genErr
	}
	return w, nil
}

// Cache file layout (little endian):
//
//	"N3BENCHW" | u32 version | params (see encodeParams) | u32 tx size |
//	count × tx | SHA-256 of everything before
const (
	cacheMagic   = "N3BENCHW"
	cacheVersion = 1
)

// encodeParams is the cache key material: every parameter that changes a
// byte of the workload. The sender enters as its public key.
func encodeParams(p *Params) ([]byte, error) {
	k, err := keys.NewPrivateKeyFromWIF(p.SenderWIF)
	if err != nil {
		return nil, fmt.Errorf("%w: sender: %w", ErrParams, err)
	}
	b := make([]byte, 0, 128)
	b = binary.LittleEndian.AppendUint32(b, p.Magic)
	b = append(b, p.Token[:]...)
	pub := k.PublicKey().Compressed()
	b = append(b, pub[:]...)
	b = append(b, p.To[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(p.Amount))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.Count))
	b = binary.LittleEndian.AppendUint32(b, p.ValidUntilBlock)
	b = binary.LittleEndian.AppendUint64(b, uint64(p.SystemFee))
	b = binary.LittleEndian.AppendUint64(b, uint64(p.NetworkFee))
	return b, nil
}

// CachePath returns the file that caches the workload of p in dir. Its
// name is a digest of the parameters, so changing any of them selects
// another file.
func CachePath(dir string, p Params) (string, error) {
	enc, err := encodeParams(&p)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(append([]byte(cacheMagic), enc...))
	return filepath.Join(dir, fmt.Sprintf("workload-%d-%s.bin", p.Count, hex.EncodeToString(h[:8]))), nil
}

// WriteCache writes w to path (through a temporary file and a rename, so a
// reader never sees half a file).
func WriteCache(path string, w *Workload) error {
	enc, err := encodeParams(&w.Params)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".workload-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	head := make([]byte, 0, 64+len(enc))
	head = append(head, cacheMagic...)
	head = binary.LittleEndian.AppendUint32(head, cacheVersion)
	head = append(head, enc...)
	head = binary.LittleEndian.AppendUint32(head, uint32(w.TxSize))
	sum := sha256.New()
	sum.Write(head)
	sum.Write(w.data)
	_, err = f.Write(head)
	if err == nil {
		_, err = f.Write(w.data)
	}
	if err == nil {
		_, err = f.Write(sum.Sum(nil))
	}
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// ReadCache reads the workload of p from path. It fails with ErrCacheFile
// if the file is damaged and with an error wrapping ErrCacheFile if it holds
// a workload for other parameters.
func ReadCache(path string, p Params) (*Workload, error) {
	enc, err := encodeParams(&p)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hl := len(cacheMagic) + 4 + len(enc) + 4
	if len(data) < hl+sha256.Size {
		return nil, fmt.Errorf("%w: %s: too short", ErrCacheFile, path)
	}
	if string(data[:len(cacheMagic)]) != cacheMagic ||
		binary.LittleEndian.Uint32(data[len(cacheMagic):]) != cacheVersion {
		return nil, fmt.Errorf("%w: %s: not a version %d workload", ErrCacheFile, path, cacheVersion)
	}
	if !bytes.Equal(data[len(cacheMagic)+4:hl-4], enc) {
		return nil, fmt.Errorf("%w: %w: %s", ErrCacheFile, errCacheStale, path)
	}
	size := int(binary.LittleEndian.Uint32(data[hl-4:]))
	body := data[hl : len(data)-sha256.Size]
	if size == 0 || len(body) != size*p.Count {
		return nil, fmt.Errorf("%w: %s: %d bytes of transactions, want %d × %d", ErrCacheFile, path, len(body), p.Count, size)
	}
	if sum := sha256.Sum256(data[:len(data)-sha256.Size]); !bytes.Equal(sum[:], data[len(data)-sha256.Size:]) {
		return nil, fmt.Errorf("%w: %s: checksum mismatch", ErrCacheFile, path)
	}
	k, _ := keys.NewPrivateKeyFromWIF(p.SenderWIF) // checked by encodeParams
	return &Workload{Params: p, Sender: k.ScriptHash(), TxSize: size, data: body}, nil
}

// LoadOrGenerate returns the workload of p from the cache in dir, or
// generates it and writes the cache (dir == "" disables caching). cached
// tells which happened; a damaged cache file is regenerated.
func LoadOrGenerate(ctx context.Context, dir string, p Params, progress func(done int)) (w *Workload, cached bool, path string, err error) {
	if dir != "" {
		if path, err = CachePath(dir, p); err != nil {
			return nil, false, "", err
		}
		if w, err = ReadCache(path, p); err == nil {
			return w, true, path, nil
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, ErrCacheFile) {
			return nil, false, path, err
		}
	}
	if w, err = Generate(ctx, p, progress); err != nil {
		return nil, false, path, err
	}
	if dir != "" {
		if err := WriteCache(path, w); err != nil {
			return nil, false, path, fmt.Errorf("bench: write workload cache: %w", err)
		}
	}
	return w, false, path, nil
}
