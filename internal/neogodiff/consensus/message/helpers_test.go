package message_test

import "github.com/n3node/n3node/internal/consensustest"

// The fixtures are internal/consensustest's.
const testMagic = consensustest.Magic

var (
	testKey        = consensustest.Key
	h256           = consensustest.Hash
	sampleMessages = consensustest.SampleMessages
)
