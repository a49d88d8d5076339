package smartcontract

// Test hooks.
var (
	AppendPushInt  = appendPushInt
	AppendPushData = appendPushData
)
