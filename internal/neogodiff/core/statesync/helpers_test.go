package statesync_test

import "github.com/n3node/n3node/internal/mpttest"

// testTrie is internal/mpttest's random trie.
var testTrie = mpttest.RandomTrie
