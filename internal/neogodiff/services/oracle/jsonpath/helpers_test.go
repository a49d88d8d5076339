package jsonpath_test

import (
	"encoding/json"
	"os"
	"testing"
)

// vectorCase is one case of pkg/services/oracle/jsonpath's vector file
// (its vectors_test.go reads the same file).
type vectorCase struct {
	Source string  `json:"source"`
	Doc    string  `json:"doc"`
	Path   string  `json:"path"`
	Result *string `json:"result"`
}

// loadVectors reads the JSONPath vectors: documents by name and cases.
func loadVectors(t testing.TB) (map[string]string, []vectorCase) {
	b, err := os.ReadFile("../../../../../pkg/services/oracle/jsonpath/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Documents map[string]string `json:"documents"`
		Cases     []vectorCase      `json:"cases"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) == 0 {
		t.Fatal("no vectors")
	}
	return v.Documents, v.Cases
}
