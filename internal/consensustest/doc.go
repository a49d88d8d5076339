// Package consensustest holds dBFT message fixtures: one message of every
// kind and the encoding variants, the keys that sign them and the magic.
// pkg/consensus/message's tests and the differential tests against neo-go
// (internal/neogodiff) use them.
package consensustest
