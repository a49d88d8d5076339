// Package stateroottest is a StateService test cluster: chains over one
// fake network delivering broadcasts in order from one goroutine, a clock
// the test moves, and ledgers that can lie about their local roots. The
// StateService's own tests and the differential tests against neo-go
// (internal/neogodiff) use it.
package stateroottest
