package chaindump

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxBlockSize bounds one block record of a dump: 32 MiB, the largest P2P
// payload (neo-go payload.MaxSize), far above any configurable
// MaxBlockSize.
const MaxBlockSize = 32 << 20

// blockVersion0 is the only block version (C# Block.Version must be 0).
const blockVersion0 = 0

// ErrFormat is wrapped by every dump format error.
var ErrFormat = errors.New("chaindump: bad dump")

// Reader reads a dump block by block.
type Reader struct {
	r     *bufio.Reader
	start uint32
	count uint32
	read  uint32
	// Incremental reports whether the dump has neo-go's start index.
	Incremental bool
	buf         [4]byte
}

// NewReader reads the dump header from r and returns a Reader positioned at
// the first block.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, err := br.Peek(12)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			// A C# dump of zero blocks is just the count.
			if len(head) == 4 && binary.LittleEndian.Uint32(head) == 0 {
				_, _ = br.Discard(4)
				return &Reader{r: br}, nil
			}
			return nil, fmt.Errorf("%w: %d-byte header", ErrFormat, len(head))
		}
		return nil, err
	}
	a := binary.LittleEndian.Uint32(head)
	b := binary.LittleEndian.Uint32(head[4:])
	c := binary.LittleEndian.Uint32(head[8:])
	rd := &Reader{r: br}
	if c == blockVersion0 {
		rd.count = a
		_, _ = br.Discard(4)
	} else {
		rd.start, rd.count, rd.Incremental = a, b, true
		_, _ = br.Discard(8)
	}
	return rd, nil
}

// Start returns the index of the dump's first block.
func (r *Reader) Start() uint32 { return r.start }

// Count returns the number of blocks the dump declares.
func (r *Reader) Count() uint32 { return r.count }

// Position returns the index of the next block Next returns.
func (r *Reader) Position() uint32 { return r.start + r.read }

// Remaining returns the number of blocks not yet read.
func (r *Reader) Remaining() uint32 { return r.count - r.read }

func (r *Reader) size() (uint32, error) {
	if r.read >= r.count {
		return 0, io.EOF
	}
	if _, err := io.ReadFull(r.r, r.buf[:]); err != nil {
		return 0, fmt.Errorf("%w: block %d: size: %w", ErrFormat, r.Position(), unexpected(err))
	}
	n := binary.LittleEndian.Uint32(r.buf[:])
	if n > MaxBlockSize {
		return 0, fmt.Errorf("%w: block %d: size %d exceeds %d", ErrFormat, r.Position(), n, MaxBlockSize)
	}
	return n, nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Next returns the next block's bytes (a fresh slice), or io.EOF after the
// last declared block.
func (r *Reader) Next() ([]byte, error) {
	n, err := r.size()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		return nil, fmt.Errorf("%w: block %d: %w", ErrFormat, r.Position(), unexpected(err))
	}
	r.read++
	return b, nil
}

// Skip skips n blocks (fewer if the dump ends first: then io.EOF).
func (r *Reader) Skip(n uint32) error {
	for range n {
		sz, err := r.size()
		if err != nil {
			return err
		}
		if _, err := r.r.Discard(int(sz)); err != nil {
			return fmt.Errorf("%w: block %d: %w", ErrFormat, r.Position(), unexpected(err))
		}
		r.read++
	}
	return nil
}

// Writer writes a dump.
type Writer struct {
	w       *bufio.Writer
	count   uint32
	written uint32
	buf     [4]byte
}

// NewWriter writes the header of a dump of count blocks starting at start:
// the C# layout (count only, start must be 0) unless incremental is set.
func NewWriter(w io.Writer, start, count uint32, incremental bool) (*Writer, error) {
	if !incremental && start != 0 {
		return nil, fmt.Errorf("%w: a C# dump starts at block 0, not %d", ErrFormat, start)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var head []byte
	if incremental {
		head = binary.LittleEndian.AppendUint32(head, start)
	}
	head = binary.LittleEndian.AppendUint32(head, count)
	if _, err := bw.Write(head); err != nil {
		return nil, err
	}
	return &Writer{w: bw, count: count}, nil
}

// WriteBlock writes one block record.
func (w *Writer) WriteBlock(b []byte) error {
	if w.written >= w.count {
		return fmt.Errorf("%w: more than the %d declared blocks", ErrFormat, w.count)
	}
	binary.LittleEndian.PutUint32(w.buf[:], uint32(len(b)))
	if _, err := w.w.Write(w.buf[:]); err != nil {
		return err
	}
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	w.written++
	return nil
}

// Close flushes the writer; it fails if fewer blocks than declared were
// written. It does not close the underlying writer.
func (w *Writer) Close() error {
	if err := w.w.Flush(); err != nil {
		return err
	}
	if w.written != w.count {
		return fmt.Errorf("%w: %d of %d declared blocks written", ErrFormat, w.written, w.count)
	}
	return nil
}
