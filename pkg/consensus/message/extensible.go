package message

import "github.com/n3node/n3node/pkg/network/payload"

// Extensible is the signed envelope of a consensus message: the P2P
// "extensible" payload (C# ExtensiblePayload) of package payload, the
// network's wire format, shared so that a message needs no conversion
// between the network and consensus.
type Extensible = payload.Extensible

// Envelope limits and errors (package payload's).
const (
	// MaxCategorySize bounds Extensible.Category in bytes.
	MaxCategorySize = payload.MaxCategorySize
	// MaxDataSize bounds Extensible.Data.
	MaxDataSize = payload.MaxExtensibleDataSize
)

// Category is the extensible payload category of consensus messages.
const Category = payload.ConsensusCategory

// Envelope errors.
var (
	ErrValidRange   = payload.ErrValidRange
	ErrWitnessCount = payload.ErrWitnessCount
)
