// Package noderoles defines the node roles of the RoleManagement native
// contract (C# Role): the roles keys can be designated for by the committee.
// A role's value is its storage prefix in RoleManagement; only the four
// values below are valid.
package noderoles

import "strconv"

// Role is a node role (C# Role, a byte).
type Role byte

// The roles (C# Role values).
const (
	// StateValidator nodes sign state roots.
	StateValidator Role = 4
	// Oracle nodes process Oracle requests.
	Oracle Role = 8
	// NeoFSAlphabet are the NeoFS Alphabet nodes.
	NeoFSAlphabet Role = 16
	// P2PNotary nodes process P2P notary requests.
	P2PNotary Role = 32
)

// All lists the valid roles in ascending order.
var All = []Role{StateValidator, Oracle, NeoFSAlphabet, P2PNotary}

// IsValid reports whether r is one of the defined roles (C#
// Enum.IsDefined).
func IsValid(r Role) bool {
	switch r {
	case StateValidator, Oracle, NeoFSAlphabet, P2PNotary:
		return true
	}
	return false
}

// String returns the C# name of the role (the number for an undefined one).
func (r Role) String() string {
	switch r {
	case StateValidator:
		return "StateValidator"
	case Oracle:
		return "Oracle"
	case NeoFSAlphabet:
		return "NeoFSAlphabetNode"
	case P2PNotary:
		return "P2PNotary"
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}
