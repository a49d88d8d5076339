package message

// DecodePrefix exposes decodePrefix to the fuzz tests.
var DecodePrefix = decodePrefix
