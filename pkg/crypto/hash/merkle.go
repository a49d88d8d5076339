package hash

import "crypto/sha256"

// MerkleRoot returns the root of Neo's merkle tree over hashes: a parent is
// Hash256(left || right), an odd level pairs its last node with itself, a
// single leaf is its own root and no leaves give the zero hash.
// hashes is not modified.
func MerkleRoot(hashes []Uint256) Uint256 {
	switch len(hashes) {
	case 0:
		return Uint256{}
	case 1:
		return hashes[0]
	}
	level := make([]Uint256, (len(hashes)+1)/2)
	merkleLevel(level, hashes)
	for len(level) > 1 {
		n := (len(level) + 1) / 2
		merkleLevel(level[:n], level)
		level = level[:n]
	}
	return level[0]
}

// merkleLevel writes the parents of src into dst; dst may alias src since
// parent i is written after children 2i and 2i+1 are read.
func merkleLevel(dst, src []Uint256) {
	var buf [64]byte
	for i := range dst {
		l := src[2*i]
		r := l
		if 2*i+1 < len(src) {
			r = src[2*i+1]
		}
		copy(buf[:32], l[:])
		copy(buf[32:], r[:])
		h := sha256.Sum256(buf[:])
		dst[i] = sha256.Sum256(h[:])
	}
}
