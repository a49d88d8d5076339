package memlimit

import (
	"runtime/debug"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/storage"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestChoose(t *testing.T) {
	pool := Input{MemPoolSize: 50000}
	with := func(in Input, f func(*Input)) Input { f(&in); return in }
	const auto = AutoBase + 50000*AutoPerPoolTx
	for _, tc := range []struct {
		name  string
		in    Input
		env   func(string) string
		limit int64
		src   Source
	}{
		{"unset: derived", pool, env(), auto, SourceAuto},
		{"derived with leveldb buffers", with(pool, func(i *Input) { i.StoreHeap = 160 << 20 }), env(), auto + 160<<20, SourceAuto},
		{"configured", with(pool, func(i *Input) { i.ConfiguredMiB = 256 }), env(), 256 << 20, SourceConfig},
		{"configured off", with(pool, func(i *Input) { i.ConfiguredMiB = -1 }), env(), 0, SourceOff},
		{"flag wins over the configuration", with(pool, func(i *Input) { i.ConfiguredMiB, i.FlagMiB, i.FlagSet = 256, 96, true }), env(), 96 << 20, SourceFlag},
		{"flag 0: none", with(pool, func(i *Input) { i.FlagSet = true }), env(), 0, SourceOff},
		{"GOMEMLIMIT wins", with(pool, func(i *Input) { i.ConfiguredMiB = 256 }), env(EnvMemLimit, "1GiB"), 0, SourceEnv},
		{"GOMEMLIMIT wins over the flag", with(pool, func(i *Input) { i.FlagMiB, i.FlagSet = 96, true }), env(EnvMemLimit, "off"), 0, SourceEnv},
		{"GOGC wins", pool, env(EnvGOGC, "200"), 0, SourceEnv},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Choose(tc.in, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.Limit != tc.limit || c.Source != tc.src {
				t.Errorf("got %d from %s, want %d from %s", c.Limit, c.Source, tc.limit, tc.src)
			}
			if len(c.LogAttrs())%2 != 0 {
				t.Errorf("odd log attributes %v", c.LogAttrs())
			}
		})
	}
	for _, m := range []int{-1, config.MaxMemoryLimitMiB + 1} {
		if _, err := Choose(Input{FlagMiB: m, FlagSet: true}, env()); err == nil {
			t.Errorf("--memory-limit %d accepted", m)
		}
	}
}

// TestFromConfig: the derivation reads the pool size (with its default)
// and the store the configuration selects.
func TestFromConfig(t *testing.T) {
	cfg, err := config.LoadNetwork("privnet")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	so, err := storage.OptionsFromConfig(cfg.ApplicationConfiguration.DBConfiguration, "", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromConfig(&cfg, nil, env())
	if err != nil {
		t.Fatal(err)
	}
	if want := Auto(bc.MemPoolSize, so.GoHeapBytes()); c.Source != SourceAuto || c.Limit != want {
		t.Errorf("privnet: %d from %s, want %d (auto)", c.Limit, c.Source, want)
	}

	lcfg := cfg
	lcfg.ProtocolConfiguration.MemPoolSize = 1000
	d := &lcfg.ApplicationConfiguration.DBConfiguration
	d.Type, d.LevelDBOptions.DataDirectoryPath = config.DBLevelDB, "/l"
	d.LevelDBOptions.CacheSizeMiB, d.LevelDBOptions.WriteBufferSizeMiB = 16, 32
	c, err = FromConfig(&lcfg, nil, env())
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(AutoBase + 1000*AutoPerPoolTx + (16+2*32)<<20); c.Limit != want {
		t.Errorf("leveldb 16/32, pool 1000: %d, want %d", c.Limit, want)
	}

	lcfg.ApplicationConfiguration.MemoryLimitMiB = 300
	flag := 0
	if c, _ = FromConfig(&lcfg, nil, env()); c.Limit != 300<<20 || c.Source != SourceConfig {
		t.Errorf("MemoryLimitMiB 300: %d from %s", c.Limit, c.Source)
	}
	if c, _ = FromConfig(&lcfg, &flag, env()); c.Limit != 0 || c.Source != SourceOff {
		t.Errorf("--memory-limit 0: %d from %s", c.Limit, c.Source)
	}
}

func TestApply(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	if prev := (Choice{Source: SourceOff}).Apply(); prev != -1 || debug.SetMemoryLimit(-1) != old {
		t.Errorf("no limit: Apply changed the runtime's limit (%d)", prev)
	}
	if prev := (Choice{Limit: 512 << 20, Source: SourceConfig}).Apply(); prev != old {
		t.Errorf("Apply returned %d, want the previous %d", prev, old)
	}
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("limit %d after Apply, want %d", got, 512<<20)
	}
}
