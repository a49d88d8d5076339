package storage

import "bytes"

// Bounds returns the half-open key interval [lo, hi) that rng visits; a nil
// hi means "no upper bound". Every key in the interval has the prefix
// rng.Prefix, so a backend only has to walk [lo, hi) in the right direction.
// An empty lo is returned as nil.
func (rng SeekRange) Bounds() (lo, hi []byte) {
	start := concat(rng.Prefix, rng.Start)
	if !rng.Backwards {
		lo, hi = start, PrefixSuccessor(rng.Prefix)
	} else {
		lo, hi = rng.Prefix, PrefixSuccessor(start)
	}
	if len(lo) == 0 {
		lo = nil
	}
	return lo, hi
}

// PrefixSuccessor returns the smallest key greater than every key that
// begins with p, or nil when there is none (p empty or all 0xff).
func PrefixSuccessor(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			s := make([]byte, i+1)
			copy(s, p)
			s[i]++
			return s
		}
	}
	return nil
}

// contains reports whether k lies in [lo, hi).
func contains(lo, hi, k []byte) bool {
	return bytes.Compare(k, lo) >= 0 && (hi == nil || bytes.Compare(k, hi) < 0)
}

func concat(a, b []byte) []byte {
	if len(b) == 0 {
		return a
	}
	s := make([]byte, 0, len(a)+len(b))
	return append(append(s, a...), b...)
}
