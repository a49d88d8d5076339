// Package bench is the throughput benchmark of `n3node bench`: a load
// generator and reporter that measures any Neo N3 node over JSON-RPC the way
// neo-bench measures neo-go and the C# node, so that figures of two nodes
// taken on one machine can be compared as ratios.
//
// # A run (Run)
//
//  1. getversion (magic, block time, validators), getnativecontracts and the
//     Policy fee settings.
//  2. The workload (Generate, LoadOrGenerate): Count NEP-17 transfers
//     System.Contract.Call(token, "transfer", All, [sender, receiver, 1,
//     null]) + ASSERT, one CalledByEntry signer, fixed fees and
//     ValidUntilBlock, nonce = index, signed with RFC 6979 on all cores and
//     cached in a binary file keyed by every parameter, so every node gets
//     byte-identical transactions. The request bodies are encoded once
//     (EncodeBodies) before the load.
//  3. Preparation (Fund): NEO and GAS move from the validators' multisig
//     account to the sender; the run waits for the balances, then for one
//     new block, the reference block.
//  4. Load (Sender): W workers, each on its own keep-alive connection,
//     send as fast as answered or at a target total rate. A -502 (mempool
//     full) answer puts the transaction back in the queue and pauses the
//     worker (msPerBlock/10); other failures are counted by message.
//  5. Measurement: a poller fetches every block after the reference
//     (getblockcount + binary getblock every 500 ms); after sending, it
//     waits until every accepted transaction is in a block. ComputeTPS
//     applies neo-bench's formula; RPS = accepted / sending time; the node's
//     CPU share of the host and VmRSS come from /proc every second
//     (package procstat) when the node's pid is known.
//  6. Output (WriteOutputs): result.json, summary.md, tps.png and
//     resources.png. Compare takes several result files per node and gives
//     medians and ratios.
//
// # Ownership and concurrency
//
// Workload.Tx and Bodies.Body return sub-slices of one shared buffer: read
// only. Run, Generate and Sender.Run own their goroutines and stop them
// before returning. A Sender's counters may be read while it runs.
package bench
