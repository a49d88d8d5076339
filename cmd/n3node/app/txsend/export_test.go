package txsend

// Exported for the differential tests in package app_test.
var NewParamFromString = newParamFromString
