// Package chaingen builds the reference chain with neo-go: it starts a
// single-validator neo-go 0.120.0 private network, drives a fixed scenario of
// transactions through its JSON-RPC server (NEO and GAS transfers, candidate
// registration and votes, contract deployment, storage writes, update and
// destroy, committee actions, faulting transactions, attributes, empty
// blocks), records neo-go's answers about the result, dumps the chain and
// proves the dump by restoring it into a fresh neo-go node and replaying every
// record against it. Output is a fixture directory in the layout package
// refchain loads (testdata/refchain).
//
// To stay independent of the code under test, the package carries its own
// small tools: a script assembler with labels (Builder), NEF3 and manifest
// writers, a transaction encoder and signer, WIF and address codecs. They
// implement only what the scenario needs and are not meant for production.
//
// Determinism: accounts, contracts, transaction nonces, valid-until heights,
// fees and signatures (RFC 6979) are fixed, so transactions are identical
// between runs; block timestamps, block nonces and which block a transaction
// lands in vary with timing.
package chaingen
