package mpt

import (
	"bytes"
	"fmt"

	"github.com/n3node/n3node/pkg/core/mpt/mptproof"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// ErrInvalidProof means a proof does not show the key under the root.
var ErrInvalidProof = mptproof.ErrInvalidProof

// Proof wire-format limits (C# StatePlugin.VerifyProof), see mptproof.
const (
	MaxProofKeyLength = mptproof.MaxKeyLength
	MaxProofNodes     = mptproof.MaxNodes
)

// GetProof returns the proof that key is in the trie: the encodings of the
// nodes on the path from the root to the key's leaf, root first (the order
// neo-go returns; C# returns the same set unordered). It returns
// ErrNotFound if the key is absent. Unflushed changes are hashed first, as
// by StateRoot.
func (t *Trie) GetProof(key []byte) ([][]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	t.commit()
	var buf [2 * MaxKeyLength]byte
	var proof [][]byte
	_, err := t.walk(toNibbles(buf[:0], key), func(n *Node, stored []byte) {
		if stored == nil {
			proof = append(proof, n.Bytes())
			return
		}
		if t.mode.RC() {
			stored = stored[:len(stored)-refSuffixLen]
		}
		proof = append(proof, bytes.Clone(stored)) // the node aliases stored; the caller owns the proof
	})
	if err != nil {
		return nil, err
	}
	return proof, nil
}

// VerifyProof checks that proof shows key under root and returns the
// key's value (empty, non-nil, for an empty value). Proof nodes may come
// in any order; unused ones are ignored. It fails with an error wrapping
// ErrInvalidProof if a node is missing or malformed or the path does not
// end at the key's leaf. Work is bounded by the proof's size: each node is
// decoded at most once per step and the path is at most 136 steps.
func VerifyProof(root hash.Uint256, key []byte, proof [][]byte) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidProof, err)
	}
	nodes := make(map[hash.Uint256][]byte, len(proof))
	for _, p := range proof {
		nodes[hash.Hash256(p)] = p
	}
	var buf [2 * MaxKeyLength]byte
	path := toNibbles(buf[:0], key)
	h := root
	for range 2*MaxPathLength + 2 {
		enc, ok := nodes[h]
		if !ok {
			return nil, fmt.Errorf("%w: node %s is missing", ErrInvalidProof, h)
		}
		n, err := decodeNode(enc, false)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidProof, err)
		}
		var next *Node
		switch n.Type() {
		case LeafT:
			if len(path) != 0 {
				return nil, fmt.Errorf("%w: %w", ErrInvalidProof, ErrNotFound)
			}
			return bytes.Clone(n.data), nil
		case BranchT:
			if len(path) == 0 {
				next = n.kids[valueSlot]
			} else {
				next = n.kids[path[0]]
				path = path[1:]
			}
		case ExtensionT:
			if !bytes.HasPrefix(path, n.data) {
				return nil, fmt.Errorf("%w: %w", ErrInvalidProof, ErrNotFound)
			}
			path = path[len(n.data):]
			next = n.next
		default:
			return nil, fmt.Errorf("%w: proof node of type %s", ErrInvalidProof, n.Type())
		}
		if next == nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidProof, ErrNotFound)
		}
		h = next.hash
	}
	return nil, fmt.Errorf("%w: path too long", ErrInvalidProof)
}

// ProofWithKey is the proof wire format (package mptproof, which the RPC
// types use without the trie and its storage).
type ProofWithKey = mptproof.ProofWithKey

// DecodeProofWithKey decodes an encoded proof (mptproof.Decode).
func DecodeProofWithKey(b []byte) (*ProofWithKey, error) { return mptproof.Decode(b) }
