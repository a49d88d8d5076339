package nef

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
)

// Format constants and limits.
const (
	// Magic is the file header (C# NefFile.Magic, "NEF3" little-endian).
	Magic uint32 = 0x3346454E
	// CompilerFieldSize is the fixed size of the compiler name field (C#
	// WriteFixedString(Compiler, 64)).
	CompilerFieldSize = 64
	// MaxSourceURLLength bounds Source in bytes (C# ReadVarString(256)).
	MaxSourceURLLength = 256
	// MaxTokens bounds the number of method tokens (C#
	// ReadSerializableArray<MethodToken>(128)).
	MaxTokens = 128
	// MaxMethodNameLength bounds MethodToken.Method in bytes (C#
	// MethodToken: ReadVarString(32)).
	MaxMethodNameLength = 32
	// MaxScriptLength bounds Script (C# ReadVarMemory(
	// ExecutionEngineLimits.Default.MaxItemSize), ushort.MaxValue * 2).
	MaxScriptLength = 65535 * 2
	// MaxFileSize bounds the encoded file (C# "Max vm item size exceed"
	// check, ExecutionEngineLimits.Default.MaxItemSize).
	MaxFileSize = 65535 * 2

	// headerSize is Magic plus Compiler.
	headerSize = 4 + CompilerFieldSize
	// checksumSize is the trailing u32.
	checksumSize = 4
)

// Errors returned (wrapped) by decoders and encoders. Length violations
// wrap io.ErrTooLarge and truncated input io.ErrUnexpectedEOF.
var (
	ErrInvalidMagic      = errors.New("nef: invalid magic")
	ErrCompilerPadding   = errors.New("nef: compiler field padding is not zero")
	ErrCompilerTooLong   = errors.New("nef: compiler name exceeds 64 bytes")
	ErrReserved          = errors.New("nef: reserved bytes must be 0")
	ErrEmptyScript       = errors.New("nef: empty script")
	ErrChecksum          = errors.New("nef: checksum verification failure")
	ErrFileTooLarge      = errors.New("nef: file exceeds the VM item size limit")
	ErrInvalidMethodName = errors.New("nef: method token name starts with '_'")
	ErrInvalidCallFlags  = errors.New("nef: method token has invalid call flags")
	ErrInvalidBool       = errors.New("nef: invalid boolean value")
)

// MethodToken describes a method a contract calls statically with CALLT (C#
// MethodToken).
type MethodToken struct {
	// Hash is the called contract.
	Hash hash.Uint160
	// Method is the called method's name.
	Method string
	// ParamCount is the number of arguments the call takes.
	ParamCount uint16
	// HasReturn tells whether the method returns a value.
	HasReturn bool
	// CallFlag is the set of flags the call is made with.
	CallFlag callflag.CallFlag
}

// File is a decoded NEF3 file.
type File struct {
	// Compiler names the compiler and its version (at most 64 bytes).
	Compiler string
	// Source is the URL of the source code (at most 256 bytes).
	Source string
	// Tokens lists the methods called with CALLT; never nil after decoding.
	Tokens []MethodToken
	// Script is the contract's code.
	Script []byte
	// Checksum is the first four bytes of Hash256 of the encoding without
	// the checksum, read as a little-endian u32.
	Checksum uint32
}

// NewFile returns a file for script with the checksum set.
func NewFile(compiler, source string, tokens []MethodToken, script []byte) (*File, error) {
	if tokens == nil {
		tokens = []MethodToken{}
	}
	f := &File{Compiler: compiler, Source: source, Tokens: tokens, Script: script}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	f.Checksum = f.CalculateChecksum()
	return f, nil
}

// Size returns the length of the encoding (C# NefFile.Size).
func (f *File) Size() int {
	n := headerSize + nio.VarBytesSize(len(f.Source)) + 1 + nio.VarUintSize(uint64(len(f.Tokens))) +
		2 + nio.VarBytesSize(len(f.Script)) + checksumSize
	for i := range f.Tokens {
		n += f.Tokens[i].Size()
	}
	return n
}

// Size returns the length of the token's encoding.
func (t *MethodToken) Size() int {
	return hash.Uint160Size + nio.VarBytesSize(len(t.Method)) + 2 + 1 + 1
}

// Validate checks every rule the decoder enforces except the checksum.
func (f *File) Validate() error {
	if len(f.Compiler) > CompilerFieldSize {
		return ErrCompilerTooLong
	}
	if strings.IndexByte(f.Compiler, 0) >= 0 {
		return ErrCompilerPadding
	}
	if !utf8.ValidString(f.Compiler) || !utf8.ValidString(f.Source) {
		return nio.ErrInvalidUTF8
	}
	if len(f.Source) > MaxSourceURLLength {
		return fmt.Errorf("nef: source: %w: %d > %d", nio.ErrTooLarge, len(f.Source), MaxSourceURLLength)
	}
	if len(f.Tokens) > MaxTokens {
		return fmt.Errorf("nef: tokens: %w: %d > %d", nio.ErrTooLarge, len(f.Tokens), MaxTokens)
	}
	for i := range f.Tokens {
		if err := f.Tokens[i].Validate(); err != nil {
			return fmt.Errorf("token %d: %w", i, err)
		}
	}
	if len(f.Script) == 0 {
		return ErrEmptyScript
	}
	if len(f.Script) > MaxScriptLength {
		return fmt.Errorf("nef: script: %w: %d > %d", nio.ErrTooLarge, len(f.Script), MaxScriptLength)
	}
	if n := f.Size(); n > MaxFileSize {
		return fmt.Errorf("%w: %d > %d", ErrFileTooLarge, n, MaxFileSize)
	}
	return nil
}

// Validate checks the token's name and flags.
func (t *MethodToken) Validate() error {
	if len(t.Method) > MaxMethodNameLength {
		return fmt.Errorf("nef: method name: %w: %d > %d", nio.ErrTooLarge, len(t.Method), MaxMethodNameLength)
	}
	if !utf8.ValidString(t.Method) {
		return nio.ErrInvalidUTF8
	}
	if strings.HasPrefix(t.Method, "_") {
		return ErrInvalidMethodName
	}
	if !t.CallFlag.IsValid() {
		return ErrInvalidCallFlags
	}
	return nil
}

// appendBody appends the encoding without the checksum. It does not
// validate; a compiler name longer than the field is cut.
func (f *File) appendBody(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, Magic)
	var comp [CompilerFieldSize]byte
	copy(comp[:], f.Compiler)
	b = append(b, comp[:]...)
	b = nio.AppendVarUint(b, uint64(len(f.Source)))
	b = append(b, f.Source...)
	b = append(b, 0)
	b = nio.AppendVarUint(b, uint64(len(f.Tokens)))
	for i := range f.Tokens {
		b = f.Tokens[i].appendTo(b)
	}
	b = append(b, 0, 0)
	b = nio.AppendVarUint(b, uint64(len(f.Script)))
	return append(b, f.Script...)
}

func (t *MethodToken) appendTo(b []byte) []byte {
	b = append(b, t.Hash[:]...)
	b = nio.AppendVarUint(b, uint64(len(t.Method)))
	b = append(b, t.Method...)
	b = binary.LittleEndian.AppendUint16(b, t.ParamCount)
	var r byte
	if t.HasReturn {
		r = 1
	}
	return append(b, r, byte(t.CallFlag))
}

// CalculateChecksum returns the checksum of f's canonical encoding (C#
// NefFile.ComputeChecksum). It does not validate f.
func (f *File) CalculateChecksum() uint32 {
	body := f.appendBody(make([]byte, 0, f.Size()))
	return checksum(body)
}

func checksum(body []byte) uint32 {
	c := hash.Checksum(body)
	return binary.LittleEndian.Uint32(c[:])
}

// Bytes validates f and returns its encoding. The checksum is written as
// stored in f, not recomputed.
func (f *File) Bytes() ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	b := f.appendBody(make([]byte, 0, f.Size()))
	return binary.LittleEndian.AppendUint32(b, f.Checksum), nil
}

// EncodeBinary implements io.Encodable; validation errors go to w.Err.
func (f *File) EncodeBinary(w *nio.BinWriter) {
	b, err := f.Bytes()
	if err != nil {
		w.SetError(err)
		return
	}
	w.WriteBytes(b)
}

// FileFromBytes decodes a file from the start of b as C# NefFile.Parse (and
// ContractManagement's AsSerializable) does: all checks, checksum verified,
// trailing bytes ignored.
func FileFromBytes(b []byte) (*File, error) {
	r := nio.NewBinReaderFromBuf(b)
	f := new(File)
	consumed, err := f.decode(r)
	if err != nil {
		return nil, err
	}
	// When the input was canonical (every var-int minimal), it is the
	// encoding the checksum covers and needs no re-encoding.
	var sum uint32
	if consumed == f.Size() {
		sum = checksum(b[:consumed-checksumSize])
	} else {
		sum = f.CalculateChecksum()
	}
	if sum != f.Checksum {
		return nil, ErrChecksum
	}
	return f, nil
}

// DecodeBinary implements io.Decodable with the same checks as
// FileFromBytes.
func (f *File) DecodeBinary(r *nio.BinReader) {
	if _, err := f.decode(r); err != nil {
		r.SetError(err)
		return
	}
	if f.CalculateChecksum() != f.Checksum {
		r.SetError(ErrChecksum)
	}
}

// decode reads every field and checks everything but the checksum. It
// returns the number of bytes consumed.
func (f *File) decode(r *nio.BinReader) (int, error) {
	start := r.Offset()
	if r.Err != nil {
		return 0, r.Err
	}
	if r.ReadU32LE() != Magic && r.Err == nil {
		return 0, ErrInvalidMagic
	}
	comp := r.ReadBytesAlias(CompilerFieldSize)
	if r.Err != nil {
		return 0, r.Err
	}
	end := 0
	for end < len(comp) && comp[end] != 0 {
		end++
	}
	for _, c := range comp[end:] {
		if c != 0 {
			return 0, ErrCompilerPadding
		}
	}
	if !utf8.Valid(comp[:end]) {
		return 0, fmt.Errorf("nef: compiler: %w", nio.ErrInvalidUTF8)
	}
	f.Compiler = string(comp[:end])
	f.Source = r.ReadVarString(MaxSourceURLLength)
	if r.Err != nil {
		return 0, fmt.Errorf("nef: source: %w", r.Err)
	}
	if r.ReadU8() != 0 && r.Err == nil {
		return 0, ErrReserved
	}
	n := r.ReadArrayLen(MaxTokens)
	if r.Err != nil {
		return 0, fmt.Errorf("nef: tokens: %w", r.Err)
	}
	f.Tokens = make([]MethodToken, n)
	for i := range f.Tokens {
		if err := f.Tokens[i].decode(r); err != nil {
			return 0, fmt.Errorf("token %d: %w", i, err)
		}
	}
	if r.ReadU16LE() != 0 && r.Err == nil {
		return 0, ErrReserved
	}
	f.Script = r.ReadVarBytes(MaxScriptLength)
	if r.Err != nil {
		return 0, fmt.Errorf("nef: script: %w", r.Err)
	}
	if len(f.Script) == 0 {
		return 0, ErrEmptyScript
	}
	f.Checksum = r.ReadU32LE()
	if r.Err != nil {
		return 0, r.Err
	}
	consumed := r.Offset() - start
	if consumed > MaxFileSize {
		return 0, fmt.Errorf("%w: %d > %d", ErrFileTooLarge, consumed, MaxFileSize)
	}
	return consumed, nil
}

func (t *MethodToken) decode(r *nio.BinReader) error {
	r.ReadBytes(t.Hash[:])
	t.Method = r.ReadVarString(MaxMethodNameLength)
	if r.Err != nil {
		return fmt.Errorf("nef: method: %w", r.Err)
	}
	if strings.HasPrefix(t.Method, "_") {
		return ErrInvalidMethodName
	}
	t.ParamCount = r.ReadU16LE()
	switch b := r.ReadU8(); {
	case r.Err != nil:
		return r.Err
	case b > 1:
		return fmt.Errorf("%w: %d", ErrInvalidBool, b)
	default:
		t.HasReturn = b == 1
	}
	t.CallFlag = callflag.CallFlag(r.ReadU8())
	if r.Err != nil {
		return r.Err
	}
	if !t.CallFlag.IsValid() {
		return fmt.Errorf("%w: %d", ErrInvalidCallFlags, t.CallFlag)
	}
	return nil
}

// fileJSON is the RPC form (C# NefFile.ToJson, neo-go getcontractstate).
type fileJSON struct {
	Magic    uint32        `json:"magic"`
	Compiler string        `json:"compiler"`
	Source   string        `json:"source"`
	Tokens   []MethodToken `json:"tokens"`
	Script   string        `json:"script"`
	Checksum uint32        `json:"checksum"`
}

type tokenJSON struct {
	Hash       hash.Uint160      `json:"hash"`
	Method     string            `json:"method"`
	ParamCount uint16            `json:"paramcount"`
	HasReturn  bool              `json:"hasreturnvalue"`
	CallFlag   callflag.CallFlag `json:"callflags"`
}

// MarshalJSON writes the RPC form: magic, compiler, source, tokens, script
// (base64) and checksum.
func (f File) MarshalJSON() ([]byte, error) {
	tokens := f.Tokens
	if tokens == nil {
		tokens = []MethodToken{}
	}
	return json.Marshal(fileJSON{
		Magic:    Magic,
		Compiler: f.Compiler,
		Source:   f.Source,
		Tokens:   tokens,
		Script:   base64.StdEncoding.EncodeToString(f.Script),
		Checksum: f.Checksum,
	})
}

// UnmarshalJSON reads the form MarshalJSON writes. It checks the magic but
// neither the other limits nor the checksum; call Validate and
// CalculateChecksum for that.
func (f *File) UnmarshalJSON(data []byte) error {
	var aux fileJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Magic != Magic {
		return ErrInvalidMagic
	}
	script, err := base64.StdEncoding.DecodeString(aux.Script)
	if err != nil {
		return fmt.Errorf("nef: script: %w", err)
	}
	if aux.Tokens == nil {
		aux.Tokens = []MethodToken{}
	}
	*f = File{Compiler: aux.Compiler, Source: aux.Source, Tokens: aux.Tokens, Script: script, Checksum: aux.Checksum}
	return nil
}

// MarshalJSON writes hash, method, paramcount, hasreturnvalue and callflags.
func (t MethodToken) MarshalJSON() ([]byte, error) {
	return json.Marshal(tokenJSON(t))
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (t *MethodToken) UnmarshalJSON(data []byte) error {
	var aux tokenJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*t = MethodToken(aux)
	return nil
}
