package keys

import "sync"

// keyCache is a bounded map from compressed key bytes to decoded keys. It
// keeps two generations: lookups hit the current map, then the previous one
// (promoting the entry); when the current map holds cap/2 entries it becomes
// the previous generation and a new empty map starts. Memory is bounded by
// cap entries and recently used keys survive, which is what witness checks
// (the same validator and sender keys again and again) need. Shards reduce
// lock contention between verifying goroutines.
type keyCache struct {
	shards [cacheShards]cacheShard
}

const cacheShards = 16

type cacheShard struct {
	mu        sync.RWMutex
	cur, prev map[[CompressedSize]byte]*PublicKey
	half      int
}

func newKeyCache(capacity int) *keyCache {
	c := &keyCache{}
	half := capacity / cacheShards / 2
	if half < 1 {
		half = 1
	}
	for i := range c.shards {
		c.shards[i].half = half
		c.shards[i].cur = make(map[[CompressedSize]byte]*PublicKey, half)
	}
	return c
}

func (c *keyCache) shard(k *[CompressedSize]byte) *cacheShard {
	// Byte 1 is the start of X: uniformly distributed for real keys.
	return &c.shards[k[1]%cacheShards]
}

func (c *keyCache) get(k *[CompressedSize]byte) *PublicKey {
	s := c.shard(k)
	s.mu.RLock()
	p, ok := s.cur[*k]
	if ok {
		s.mu.RUnlock()
		return p
	}
	p, ok = s.prev[*k]
	s.mu.RUnlock()
	if ok {
		s.put(k, p)
	}
	return p
}

func (c *keyCache) put(k *[CompressedSize]byte, p *PublicKey) { c.shard(k).put(k, p) }

func (s *cacheShard) put(k *[CompressedSize]byte, p *PublicKey) {
	s.mu.Lock()
	if len(s.cur) >= s.half {
		s.prev = s.cur
		s.cur = make(map[[CompressedSize]byte]*PublicKey, s.half)
	}
	s.cur[*k] = p
	s.mu.Unlock()
}

func (c *keyCache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.RLock()
		n += len(s.cur) + len(s.prev)
		s.mu.RUnlock()
	}
	return n
}
