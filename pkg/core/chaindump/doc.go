// Package chaindump reads and writes chain dumps (.acc files): the block
// stream `n3node db dump` writes and `n3node db restore` reads, compatible
// with the C# node and neo-go.
//
// # Format
//
// Two layouts exist. The C# layout (also neo-go's `db dump
// --non-incremental`) is a u32 LE block count followed by count records of
// (u32 LE size, block bytes); it starts at block 0. neo-go's default
// ("incremental") layout puts a u32 LE start index before the count. A
// Reader tells them apart as neo-go's `db restore` does: a block begins with
// its version (always 0), so if the third u32 of the file is 0 the first u32
// was the count (C# layout); otherwise the first two are start and count.
// (A C# dump whose first block is empty cannot be told apart from an
// incremental dump starting at index 0 with a zero-size first block, which
// is not a block anyway.)
//
// Writer writes the C# layout by default, the incremental one on request.
//
// # Restore
//
// Restore imports a dump into a chain (the Chain interface, which
// *core.Blockchain implements) from the block after the chain's height:
// blocks the chain has are skipped once their hashes match
// (ErrOtherChain otherwise), so an import stopped by its context or
// RestoreOptions.Count continues when run again. A goroutine decodes
// blocks a few ahead of the chain's pipeline. `n3node db restore` is this
// call with flags, a progress bar and profiles around it.
//
// # Limits and ownership
//
// A record larger than MaxBlockSize is refused before anything is
// allocated for it. Next returns a fresh slice per block, owned by the
// caller (decode it with block.NewBlockFromOwnedBytes).
package chaindump
