package config

import "go.yaml.in/yaml/v3"

// yamlRoundTrip marshals v and strictly decodes the result into out.
func yamlRoundTrip(v any, out *Config) error {
	b, err := yaml.Marshal(v)
	if err != nil {
		return err
	}
	c, err := LoadBytes("round-trip", b)
	if err != nil {
		return err
	}
	*out = c
	return nil
}
