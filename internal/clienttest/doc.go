// Package clienttest runs the client scenarios under clients/ (a neon-js one
// and a neo-mamba one, see docs/clients.md) against a node and checks what
// they report.
//
// A scenario is a program written with a real dApp SDK: it reads versions,
// blocks and balances, builds, signs and sends NEP-17 transfers from the
// committee (a 1-of-1 multisig account) and from a fresh single-signature
// account, waits for them and reads their application logs, invokes read
// methods and scripts, and iterates an RPC session. It takes the node's RPC
// URL and the committee's WIF, prints progress on stderr and a JSON Summary as
// the last line of stdout, and exits 0 when every step passed.
//
// The node is pluggable: a Starter brings up a single-validator private
// network (RPC sessions on or off, StartOptions) and returns a Target.
// StartNeoGo runs the reference node neo-go 0.120.0 with the reference
// chain's protocol settings; StartN3Node runs `n3node run` (built from this
// tree) with the same configuration file. A node started elsewhere can be
// used as is (the test's -rpc flag). TestClients runs every scenario against
// every node and session setting it is given and requires the nodes to agree
// on the fees of the transactions the scenarios send (Summary.Fees).
//
// Install fetches each SDK into a cache through clients/install.sh (npm for
// neon-js, a Python venv with pip for neo-mamba) on first use. The tests
// here run only with N3NODE_CLIENTS=1 (`make clients`) because they need the
// registries on first use, Node.js, Python >= 3.13, neo-go and a Go
// toolchain to build n3node.
package clienttest
