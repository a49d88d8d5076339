package lifecycle_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/services/lifecycle"
)

func TestOnce(t *testing.T) {
	var o lifecycle.Once
	starts, stops := 0, 0
	o.Start(func() { starts++ })
	o.Start(func() { starts++ })
	o.Stop(func() { stops++ })
	o.Stop(func() { stops++ })
	o.Start(func() { starts++ })
	if starts != 1 || stops != 1 {
		t.Fatalf("starts %d, stops %d", starts, stops)
	}

	var never lifecycle.Once
	never.Stop(func() { t.Fatal("stop of a service that never started") })
	never.Start(func() { t.Fatal("start after stop") })
}
