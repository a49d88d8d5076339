// Package servicechain is a test harness for node services (oracle,
// notary): a real in-memory core.Blockchain with one validator
// (chaintest.CommitteeKey, also the committee) whose blocks are signed, so
// that transactions go through the ledger's verification and pool, plus
// helpers to run committee scripts, designate roles and deploy contracts.
// It is for tests only.
package servicechain
