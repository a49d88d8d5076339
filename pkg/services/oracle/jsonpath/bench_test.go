package jsonpath

import (
	"strings"
	"testing"
)

func BenchmarkFilter(b *testing.B) {
	v := loadVectors(b)
	doc := []byte(v.Documents["store"])
	big := []byte("[" + strings.Repeat(`{"name":"x\u00e9","price":12.5,"tags":["a","b"]},`, 1000) + `{}]`)
	for _, c := range []struct {
		name string
		doc  []byte
		path string
	}{
		{"store/author", doc, "$.store.book[*].author"},
		{"store/recursive", doc, "$..price"},
		{"big/all", big, "$"},
		{"big/names", big, "$[:1000].name"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if _, err := Filter(c.doc, c.path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
