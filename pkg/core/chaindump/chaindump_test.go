package chaindump

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func fakeBlock(i int) []byte {
	b := make([]byte, 10+i)
	b[4] = byte(i) // version stays 0
	return b
}

func TestRoundTrip(t *testing.T) {
	for _, inc := range []bool{false, true} {
		var buf bytes.Buffer
		start := uint32(0)
		if inc {
			start = 7
		}
		w, err := NewWriter(&buf, start, 5, inc)
		require.NoError(t, err)
		for i := range 5 {
			require.NoError(t, w.WriteBlock(fakeBlock(i)))
		}
		require.Error(t, w.WriteBlock(fakeBlock(9)))
		require.NoError(t, w.Close())

		r, err := NewReader(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		require.Equal(t, inc, r.Incremental)
		require.Equal(t, start, r.Start())
		require.EqualValues(t, 5, r.Count())
		require.NoError(t, r.Skip(1))
		require.Equal(t, start+1, r.Position())
		for i := 1; i < 5; i++ {
			b, err := r.Next()
			require.NoError(t, err)
			require.Equal(t, fakeBlock(i), b)
		}
		_, err = r.Next()
		require.ErrorIs(t, err, io.EOF)
		require.Zero(t, r.Remaining())
	}
}

func TestWriterChecks(t *testing.T) {
	_, err := NewWriter(io.Discard, 3, 1, false)
	require.ErrorIs(t, err, ErrFormat)
	w, err := NewWriter(io.Discard, 0, 2, false)
	require.NoError(t, err)
	require.NoError(t, w.WriteBlock(fakeBlock(0)))
	require.ErrorIs(t, w.Close(), ErrFormat)
}

func TestReaderErrors(t *testing.T) {
	_, err := NewReader(bytes.NewReader([]byte{1, 2}))
	require.ErrorIs(t, err, ErrFormat)
	r, err := NewReader(bytes.NewReader([]byte{0, 0, 0, 0}))
	require.NoError(t, err)
	require.Zero(t, r.Count())

	// Declared size beyond the limit: refused without reading.
	d := binary.LittleEndian.AppendUint32(nil, 1)
	d = binary.LittleEndian.AppendUint32(d, MaxBlockSize+1)
	d = binary.LittleEndian.AppendUint32(d, 0)
	r, err = NewReader(bytes.NewReader(d))
	require.NoError(t, err)
	_, err = r.Next()
	require.ErrorIs(t, err, ErrFormat)

	// Truncated block.
	d = binary.LittleEndian.AppendUint32(nil, 2)
	d = binary.LittleEndian.AppendUint32(d, 100)
	d = binary.LittleEndian.AppendUint32(d, 0)
	r, err = NewReader(bytes.NewReader(d))
	require.NoError(t, err)
	_, err = r.Next()
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.ErrorIs(t, err, ErrFormat)
	require.True(t, errors.Is(r.Skip(1), ErrFormat))
}

// The committed dumps: the reference chain (C# layout, from genesis) and
// neo-go's test dumps (C# layout without genesis; chain50x2 is incremental).
func TestCommittedDumps(t *testing.T) {
	for _, tc := range []struct {
		file        string
		incremental bool
		start       uint32
		count       uint32
	}{
		{"../../../testdata/refchain/chain.acc", false, 0, 0},
		{"../../../testdata/vectors/neogo/testblocks.acc", false, 0, 0},
		{"../../../testdata/vectors/neogo/chain50x2.acc", false, 0, 0},
	} {
		data, err := os.ReadFile(tc.file)
		require.NoError(t, err)
		r, err := NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		n := 0
		for {
			b, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			require.Zero(t, binary.LittleEndian.Uint32(b), "block version")
			n++
		}
		require.EqualValues(t, r.Count(), n)
		require.Positive(t, n, tc.file)
		t.Logf("%s: incremental=%v start=%d count=%d", tc.file, r.Incremental, r.Start(), r.Count())
	}
}

func FuzzReader(f *testing.F) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, 0, 2, false)
	_ = w.WriteBlock(fakeBlock(1))
	_ = w.WriteBlock(fakeBlock(2))
	_ = w.Close()
	f.Add(buf.Bytes())
	buf.Reset()
	w, _ = NewWriter(&buf, 5, 1, true)
	_ = w.WriteBlock(fakeBlock(3))
	_ = w.Close()
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for range 64 {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	})
}
