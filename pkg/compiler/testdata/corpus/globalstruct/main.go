package globalstruct

type Config struct {
	Limit int
	Name  string
	Flags []bool
}

var cfg = Config{Limit: 10, Name: "cfg"}

var ptr = &Config{Limit: 1}

func Set(n int) {
	cfg.Limit = n
	ptr.Limit = n * 2
	cfg.Flags = append(cfg.Flags, true)
}

func Get() int {
	return cfg.Limit + ptr.Limit + len(cfg.Flags)
}
