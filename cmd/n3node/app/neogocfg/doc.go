// Package neogocfg is neo-go's way of naming a node configuration on the
// command line, shared by `n3node node` and the `db` commands:
// --config-file FILE, or protocol.<net>.yml in --config-path DIR (default
// ./config) for -p/--privnet (the default), -m/--mainnet, -t/--testnet or
// --unittest; without --config-path and with no such file in ./config,
// the embedded network of that name.
package neogocfg
