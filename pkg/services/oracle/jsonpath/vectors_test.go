package jsonpath

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

type vectorCase struct {
	Source string  `json:"source"`
	Doc    string  `json:"doc"`
	Path   string  `json:"path"`
	Result *string `json:"result"`
}

type vectorFile struct {
	Documents map[string]string `json:"documents"`
	Cases     []vectorCase      `json:"cases"`
}

func loadVectors(t testing.TB) vectorFile {
	b, err := os.ReadFile("testdata/vectors.json")
	require.NoError(t, err)
	var v vectorFile
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Cases)
	return v
}

func TestVectors(t *testing.T) {
	v := loadVectors(t)
	ran := 0
	for _, c := range v.Cases {
		doc, ok := v.Documents[c.Doc]
		require.True(t, ok, c.Doc)
		t.Run(c.Source+"/"+c.Path, func(t *testing.T) {
			got, err := Filter([]byte(doc), c.Path)
			if c.Result == nil {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, *c.Result, string(got))
		})
		ran++
	}
	require.Greater(t, ran, 100)
}
