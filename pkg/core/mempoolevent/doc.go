// Package mempoolevent holds the memory pool event type that subscribers
// (the RPC server's "transaction_added"/"transaction_removed" feeds, the
// consensus service, the notary and oracle services) receive. It is its own
// package so that consumers need not import the pool itself.
//
// An Event shares its transaction with the pool: receivers must not modify
// it.
package mempoolevent
