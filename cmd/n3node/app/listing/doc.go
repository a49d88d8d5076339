// Package listing writes a script as neo-go 0.120.0's instruction table
// (vm.PrintOps): INDEX, OPCODE and PARAMETER columns, the first instruction
// marked "<<", operands explained (jump targets, syscall names, integers,
// strings, hashes as addresses), an undecodable instruction as ERROR, which
// ends the list. `util ops`, `query tx -v`/`util txdump` and `contract
// inspect` print it; inspect may interleave source lines.
package listing
