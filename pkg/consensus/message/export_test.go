package message

// DecodePrefix exposes decodePrefix (plain format) to the fuzz tests.
func DecodePrefix(b []byte) (*Message, int, error) { return decodePrefix(b, false) }
