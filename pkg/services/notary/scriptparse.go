package notary

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// This file is a static reader of the witness scripts of notary
// requests. It accepts exactly what neo-go 0.120.0's scparser accepts
// (ParseMultiSigContract, ParseSignatureContract, ParseAppCallNonStrict,
// ParseSomething), because which witnesses a notary node can complete
// decides whether a main transaction or its fallback gets on chain.

// Limits of the static reader (neo-go scparser).
const (
	// maxMultisigKeys is the most keys of a multisig script
	// (scparser.MaxMultisigKeys).
	maxMultisigKeys = 1024
	// maxStackSize bounds the items a script may push (vm.MaxStackSize).
	maxStackSize = 2 * 1024
	// maxPack bounds a PACK count. neo-go allocates whatever count a
	// script gives (and dies on absurd ones); n3node refuses counts no
	// real stack could hold.
	maxPack = 1 << 16
)

var (
	errNoParam  = errors.New("failed to read instruction parameter")
	checkSigID  = smartcontract.InteropID("System.Crypto.CheckSig")
	multisigID  = smartcontract.InteropID("System.Crypto.CheckMultisig")
	contractCID = smartcontract.InteropID("System.Contract.Call")
)

// reader walks a script instruction by instruction (neo-go
// scparser.Context).
type reader struct {
	ip, next int
	prog     []byte
}

// read returns the next instruction and its operand; past the end it
// returns RET.
func (c *reader) read() (opcode.Opcode, []byte, error) {
	c.ip = c.next
	if c.ip >= len(c.prog) {
		return opcode.RET, nil, nil
	}
	op := opcode.Opcode(c.prog[c.ip])
	if !op.IsValid() {
		return op, nil, fmt.Errorf("incorrect opcode %s", op)
	}
	c.next++
	n := op.OperandSize()
	if p := op.PrefixSize(); p > 0 {
		if c.next+p-1 >= len(c.prog) {
			return op, nil, errNoParam
		}
		switch p {
		case 1:
			n = int(c.prog[c.next])
		case 2:
			n = int(binary.LittleEndian.Uint16(c.prog[c.next:]))
		default:
			v := binary.LittleEndian.Uint32(c.prog[c.next:])
			if v > stackitem.MaxSize {
				return op, nil, errors.New("parameter is too big")
			}
			n = int(v)
		}
		c.next += p
	} else if n == 0 {
		return op, nil, nil
	}
	if c.next+n-1 >= len(c.prog) {
		return op, nil, errNoParam
	}
	param := c.prog[c.next : c.next+n]
	c.next += n
	return op, param, nil
}

// instr is one instruction.
type instr struct {
	op    opcode.Opcode
	param []byte
}

// int64Of is the integer a push instruction pushes (scparser
// GetInt64FromInstr).
func int64Of(in instr) (int64, error) {
	switch {
	case opcode.PUSHM1 <= in.op && in.op <= opcode.PUSH16:
		return int64(in.op) - int64(opcode.PUSH0), nil
	case opcode.PUSHINT8 <= in.op && in.op <= opcode.PUSHINT256:
		// The operand is little-endian two's complement. Like neo-go, take
		// the 16- and 32-byte forms only for non-negative int64 values.
		v := bigint.FromBytes(in.param)
		if !v.IsInt64() || (len(in.param) > 8 && v.Sign() < 0) {
			return 0, errors.New("parameter is not int64")
		}
		return v.Int64(), nil
	default:
		return 0, fmt.Errorf("expected an integer push, got %s", in.op)
	}
}

func countOf(op opcode.Opcode, param []byte) (int, bool) {
	n, err := int64Of(instr{op, param})
	if err != nil || n < 1 || n > maxMultisigKeys {
		return 0, false
	}
	return int(n), true
}

// ParseMultiSig returns m and the key operands of a multisig script
// (scparser.ParseMultiSigContract: key operands of 33 bytes or more,
// counts pushed any integer way).
func ParseMultiSig(script []byte) (int, [][]byte, bool) {
	if len(script) < 42 {
		return 0, nil, false
	}
	c := reader{prog: script}
	op, param, err := c.read()
	if err != nil {
		return 0, nil, false
	}
	m, ok := countOf(op, param)
	if !ok {
		return 0, nil, false
	}
	var pubs [][]byte
	for {
		op, param, err = c.read()
		if err != nil {
			return 0, nil, false
		}
		if op != opcode.PUSHDATA1 {
			break
		}
		if len(param) < 33 {
			return 0, nil, false
		}
		pubs = append(pubs, param)
		if len(pubs) > maxMultisigKeys {
			return 0, nil, false
		}
	}
	if len(pubs) < m {
		return 0, nil, false
	}
	if n, ok := countOf(op, param); !ok || n != len(pubs) {
		return 0, nil, false
	}
	op, param, err = c.read()
	if err != nil || op != opcode.SYSCALL || binary.LittleEndian.Uint32(param) != multisigID {
		return 0, nil, false
	}
	op, _, err = c.read()
	if err != nil || op != opcode.RET || c.ip != len(script) {
		return 0, nil, false
	}
	return m, pubs, true
}

// ParseSignature returns the key operand of a signature script.
func ParseSignature(script []byte) ([]byte, bool) {
	if len(script) != 40 || script[0] != byte(opcode.PUSHDATA1) || script[1] != 33 ||
		script[35] != byte(opcode.SYSCALL) || binary.LittleEndian.Uint32(script[36:]) != checkSigID {
		return nil, false
	}
	return script[2:35], true
}

// pushed is what a static push sequence leaves on the stack (scparser
// PushedItem): a plain instruction, a list (non-nil list) or a map
// (non-nil mp). The zero value is a placeholder for an argument a
// non-strict PACK found missing.
type pushed struct {
	instr
	list []pushed
	mp   []mapPair
}

type mapPair struct {
	key   instr
	value pushed
}

func (p pushed) isList() bool   { return p.list != nil }
func (p pushed) isMap() bool    { return p.mp != nil }
func (p pushed) isNested() bool { return p.isList() || p.isMap() }
func (p pushed) isEmpty() bool  { return p.op == 0 && p.param == nil && p.list == nil && p.mp == nil }

// reverseDepth is how many top elements SWAP, REVERSE3 and REVERSE4 reverse.
var reverseDepth = map[opcode.Opcode]int{opcode.SWAP: 2, opcode.REVERSE3: 3, opcode.REVERSE4: 4}

// pushes reads the items a script pushes until RET, the end or a
// System.Contract.Call SYSCALL (handed to onCall), and the offset after
// the last PACK-like instruction (scparser getSomethingFromContext).
// strict requires PACK counts to be present on the stack.
func pushes(c *reader, strict bool, onCall func([]pushed) ([]pushed, error)) ([]pushed, int, error) {
	res := make([]pushed, 0)
	lastPack := 0
	for op, param, err := c.read(); c.ip < len(c.prog); op, param, err = c.read() {
		if err != nil {
			return nil, 0, fmt.Errorf("failed to parse list element: %w", err)
		}
		switch op {
		case opcode.NEWARRAY0, opcode.NEWSTRUCT0:
			res = append(res, pushed{instr: instr{op, param}, list: make([]pushed, 0)})
			lastPack = c.next
		case opcode.PACK, opcode.PACKSTRUCT, opcode.PACKMAP:
			if len(res) == 0 {
				return nil, 0, fmt.Errorf("%s needs an element on the stack", op)
			}
			cnt, err := int64Of(res[len(res)-1].instr)
			if err != nil {
				return nil, 0, fmt.Errorf("%s argument: %w", op, err)
			}
			if cnt < 0 || cnt > maxPack {
				return nil, 0, fmt.Errorf("bad %s argument %d", op, cnt)
			}
			res = res[:len(res)-1]
			if op == opcode.PACKMAP {
				packed := make([]mapPair, cnt)
				elems := 2 * int(cnt)
				if strict && len(res) < elems {
					return nil, 0, fmt.Errorf("%s: %d elements needed, %d present", op, elems, len(res))
				}
				take := min(len(res), elems)
				for i := range take {
					e := res[len(res)-i-1]
					if i%2 == 0 {
						if e.isNested() {
							return nil, 0, fmt.Errorf("%s: invalid map key", op)
						}
						packed[i/2].key = e.instr
					} else {
						packed[i/2].value = e
					}
				}
				res = append(res[:len(res)-take], pushed{instr: instr{op, param}, mp: packed})
			} else {
				packed := make([]pushed, cnt)
				if strict && len(res) < int(cnt) {
					return nil, 0, fmt.Errorf("%s: %d elements needed, %d present", op, cnt, len(res))
				}
				take := min(len(res), int(cnt))
				for i := range take {
					packed[i] = res[len(res)-i-1]
				}
				res = append(res[:len(res)-take], pushed{instr: instr{op, param}, list: packed})
			}
			lastPack = c.next
		case opcode.DUP:
			if len(res) == 0 { // neo-go panics here
				return nil, 0, errors.New("DUP needs an element on the stack")
			}
			res = append(res, res[len(res)-1])
		case opcode.REVERSEITEMS:
			if len(res) == 0 {
				return nil, 0, errors.New("REVERSEITEMS needs an element on the stack")
			}
			e := res[len(res)-1]
			res = res[:len(res)-1]
			if !e.isList() {
				return nil, 0, fmt.Errorf("REVERSEITEMS of %s", e.op)
			}
			slices.Reverse(e.list)
			lastPack = c.next
		case opcode.SWAP, opcode.REVERSE3, opcode.REVERSE4, opcode.REVERSEN:
			n, fixed := reverseDepth[op]
			if !fixed { // REVERSEN: the depth is the top element
				if len(res) == 0 {
					return nil, 0, errors.New("REVERSEN needs an element on the stack")
				}
				v, err := int64Of(res[len(res)-1].instr)
				if err != nil {
					return nil, 0, fmt.Errorf("REVERSEN argument: %w", err)
				}
				n = int(v)
				res = res[:len(res)-1]
			}
			if n < 0 || n > len(res) {
				return nil, 0, fmt.Errorf("%s of %d elements", op, n)
			}
			if n > 1 {
				slices.Reverse(res[len(res)-n:])
			}
			lastPack = c.next
		case opcode.SYSCALL:
			if binary.LittleEndian.Uint32(param) != contractCID {
				return nil, 0, errors.New("only System.Contract.Call SYSCALL is supported")
			}
			res, err = onCall(res)
			if err != nil {
				return nil, 0, err
			}
			return res, lastPack, nil
		case opcode.NOP:
		case opcode.RET:
			return res, lastPack, nil
		case opcode.PUSHINT8, opcode.PUSHINT16, opcode.PUSHINT32, opcode.PUSHINT64, opcode.PUSHINT128, opcode.PUSHINT256,
			opcode.PUSHT, opcode.PUSHF, opcode.PUSHNULL, opcode.PUSHDATA1, opcode.PUSHDATA2, opcode.PUSHDATA4,
			opcode.PUSHM1, opcode.PUSH0, opcode.PUSH1, opcode.PUSH2, opcode.PUSH3, opcode.PUSH4, opcode.PUSH5,
			opcode.PUSH6, opcode.PUSH7, opcode.PUSH8, opcode.PUSH9, opcode.PUSH10, opcode.PUSH11, opcode.PUSH12,
			opcode.PUSH13, opcode.PUSH14, opcode.PUSH15, opcode.PUSH16:
			res = append(res, pushed{instr: instr{op, param}})
			if len(res) > maxStackSize+1 { // one more for a PACK count
				return nil, 0, fmt.Errorf("more than %d elements", maxStackSize)
			}
		default:
			return nil, 0, fmt.Errorf("static parser does not support %s", op)
		}
	}
	return res, lastPack, nil
}

// ParseAppCall returns N, the number of arguments of the contract call a
// verification script makes, and M, how many of them it pushes itself
// (neo-go notary.ParseAppCallContract over
// scparser.ParseAppCallNonStrict).
func ParseAppCall(script []byte) (int, int, error) {
	c := &reader{prog: script}
	res, end, err := pushes(c, false, func(res []pushed) ([]pushed, error) {
		if len(res) != 4 {
			return nil, fmt.Errorf("System.Contract.Call requires 4 parameters, got %d", len(res))
		}
		return res[:1], nil
	})
	if err != nil {
		return 0, 0, err
	}
	if len(res) != 1 || !res[0].isList() {
		return 0, 0, errors.New("expected one Array/Struct of arguments")
	}
	args := res[0].list
	if 0 < end && end < len(script) {
		c.next = end
	}
	// The call without arguments: flags, method, contract, SYSCALL.
	op, param, err := c.read()
	if err != nil {
		return 0, 0, err
	}
	f, err := int64Of(instr{op, param})
	if err != nil || callflag.CallFlag(f)&^callflag.All != 0 {
		return 0, 0, errors.New("invalid call flags")
	}
	op, param, err = c.read()
	if err != nil || op < opcode.PUSHDATA1 || op > opcode.PUSHDATA4 || !utf8.Valid(param) || len(param) == 0 {
		return 0, 0, errors.New("invalid method")
	}
	op, param, err = c.read()
	if err != nil || op != opcode.PUSHDATA1 || len(param) != 20 {
		return 0, 0, errors.New("invalid contract hash")
	}
	op, param, err = c.read()
	if err != nil || op != opcode.SYSCALL || len(param) != 4 || binary.LittleEndian.Uint32(param) != contractCID {
		return 0, 0, errors.New("expected System.Contract.Call")
	}
	if c.next < len(script) {
		return 0, 0, errors.New("extra data after script end")
	}
	m := 0
	for _, a := range args {
		if !a.isEmpty() {
			m++
		}
	}
	return len(args), m, nil
}

// CountPushes returns how many items an invocation script pushes (neo-go
// scparser.ParseSomething, strict, no SYSCALL).
func CountPushes(script []byte) (int, error) {
	c := &reader{prog: script}
	res, _, err := pushes(c, true, func([]pushed) ([]pushed, error) {
		return nil, errors.New("SYSCALL is not allowed")
	})
	if err != nil {
		return 0, err
	}
	if c.next < len(script) {
		return 0, errors.New("extra data after script end")
	}
	return len(res), nil
}
