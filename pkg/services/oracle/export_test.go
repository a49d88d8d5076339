package oracle

// MultisigNetFee exposes multisigNetFee to the tests.
var MultisigNetFee = multisigNetFee
