package config

import "testing"

func BenchmarkLoadNetworkMainnet(b *testing.B) {
	data, err := EmbeddedConfig("mainnet")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadBytes("mainnet", data); err != nil {
			b.Fatal(err)
		}
	}
}
