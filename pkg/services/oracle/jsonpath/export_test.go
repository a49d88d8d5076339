package jsonpath

import "testing"

// LoadVectors exposes the vector file to the external tests.
func LoadVectors(t testing.TB) (docs map[string]string, cases []VectorCase) {
	v := loadVectors(t)
	return v.Documents, v.Cases
}

// VectorCase is one vector.
type VectorCase = vectorCase
