package message

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// initialChunk is the most a Reader allocates for a payload before its
// bytes arrive; larger payloads grow the buffer as they are read, so a
// peer that announces 32 MiB and stalls costs 1 MiB, not 32 MiB. Blocks
// and everything else of ordinary size are read with one allocation.
const initialChunk = 1 << 20

// Reader reads messages from a stream.
type Reader struct {
	r *bufio.Reader
	// StateRootInHeader selects the header format of the network (block,
	// headers and merkleblock payloads carry the previous state root).
	StateRootInHeader bool
}

// NewReader returns a Reader over r with a 64 KiB read buffer.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// DecodeError is returned by Reader.ReadMessage for a message that was
// read but is invalid (as opposed to an I/O error): the peer broke the
// protocol.
type DecodeError struct {
	Command Command
	Err     error
}

func (e *DecodeError) Error() string { return fmt.Sprintf("invalid %s message: %v", e.Command, e.Err) }

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// ReadMessage reads and decodes the next message. I/O errors are returned
// as they are (io.EOF at a message boundary, io.ErrUnexpectedEOF inside a
// message); an invalid message gives a *DecodeError that wraps this
// package's sentinels or the payload decoder's error. After any error the
// stream position is undefined: drop the connection.
func (d *Reader) ReadMessage() (*Message, error) {
	flags, cmd, n, err := d.readHeader()
	if err != nil {
		return nil, err
	}
	raw, err := d.readPayload(n)
	if err != nil {
		return nil, err
	}
	m, err := decodeOwned(Flags(flags), Command(cmd), raw, d.StateRootInHeader)
	if err != nil {
		return nil, &DecodeError{Command: Command(cmd), Err: err}
	}
	return m, nil
}

func (d *Reader) readHeader() (flags, cmd byte, n uint64, err error) {
	var hdr [3]byte
	if _, err = io.ReadFull(d.r, hdr[:1]); err != nil {
		return // io.EOF here is a clean end of stream
	}
	if _, err = io.ReadFull(d.r, hdr[1:]); err != nil {
		return 0, 0, 0, eofInside(err)
	}
	flags, cmd = hdr[0], hdr[1]
	switch hdr[2] {
	case 0xfd, 0xfe, 0xff:
		var b [8]byte
		l := 2 << (hdr[2] - 0xfd) // 2, 4 or 8 bytes
		if _, err = io.ReadFull(d.r, b[:l]); err != nil {
			return 0, 0, 0, eofInside(err)
		}
		n = binary.LittleEndian.Uint64(b[:])
	default:
		n = uint64(hdr[2])
	}
	if n > PayloadMaxSize {
		return 0, 0, 0, &DecodeError{Command: Command(cmd), Err: fmt.Errorf("%w: %d bytes", ErrTooLarge, n)}
	}
	return flags, cmd, n, nil
}

// readPayload reads n bytes into a fresh buffer, growing it as data
// arrives.
func (d *Reader) readPayload(n uint64) ([]byte, error) {
	size := int(n)
	buf := make([]byte, min(size, initialChunk))
	if _, err := io.ReadFull(d.r, buf); err != nil {
		return nil, eofInside(err)
	}
	for len(buf) < size {
		next := min(size, 2*len(buf))
		grown := make([]byte, next)
		copy(grown, buf)
		if _, err := io.ReadFull(d.r, grown[len(buf):]); err != nil {
			return nil, eofInside(err)
		}
		buf = grown
	}
	return buf, nil
}

func eofInside(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
