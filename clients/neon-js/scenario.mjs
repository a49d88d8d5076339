// The neon-js client scenario: what a dApp written with @cityofzion/neon-js
// does against a Neo N3 node, step by step, each step checking its result.
//
//   node scenario.mjs <rpc-url> --committee-wif <WIF> [--magic <n>]
//
// <rpc-url> is the node's JSON-RPC address (http://127.0.0.1:30333 for
// `n3node run`). The committee WIF is the key of the single validator of a
// one-node private network; the committee account is the 1-of-1 multisig
// account of that key and holds the NEO and GAS of the genesis block.
// --magic, if given, is the network magic the node must report.
//
// Progress goes to stderr. The last line on stdout is a JSON summary:
// {"client", "sdk", "ok", "steps": [{"name", "ok", "ms", ...}], "quirks"}.
// The exit code is 0 when every step passed. docs/clients.md describes the
// scenario and how internal/clienttest runs it.
import { isDeepStrictEqual, parseArgs } from "node:util";
import { randomInt } from "node:crypto";
import { createRequire } from "node:module";
import { api, CONST, rpc, sc, tx, u, wallet } from "@cityofzion/neon-js";

const NEO = CONST.NATIVE_CONTRACT_HASH.NeoToken; // big-endian hex, no 0x
const GAS = CONST.NATIVE_CONTRACT_HASH.GasToken;
const GAS_UNIT = 100_000_000n; // GAS has 8 decimals, NEO none
const SDK = `@cityofzion/neon-js ${createRequire(import.meta.url)("@cityofzion/neon-js/package.json").version}`;

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "committee-wif": { type: "string" },
    magic: { type: "string" },
    timeout: { type: "string", default: "60" }, // seconds to wait for a transaction
  },
});
if (positionals.length !== 1 || !opts["committee-wif"]) {
  console.error("usage: node scenario.mjs <rpc-url> --committee-wif <WIF> [--magic <n>]");
  process.exit(2);
}
const url = positionals[0];
const client = new rpc.RPCClient(url);

// --- accounts -------------------------------------------------------------

// The validator key, its single-signature account (unused for payments), and
// the committee: a 1-of-1 multisig account over the same key.
const validator = new wallet.Account(opts["committee-wif"]);
const committee = wallet.Account.createMultiSig(1, [validator.publicKey]);
// Two fresh accounts with new random keys: alice gets NEO and GAS from the
// committee and pays bob; she also registers as a candidate.
const alice = new wallet.Account(wallet.generatePrivateKey());
const bob = new wallet.Account(wallet.generatePrivateKey());

// --- a tiny test harness --------------------------------------------------

const summary = { client: "neon-js", sdk: SDK, rpc: url, ok: false, steps: [], quirks: [] };

class Failure extends Error {}
function check(cond, msg) {
  if (!cond) throw new Failure(msg);
}
function checkEq(got, want, what) {
  check(String(got) === String(want), `${what}: got ${got}, want ${want}`);
}
function log(...args) {
  console.error("  ", ...args);
}

async function step(name, fn) {
  const start = Date.now();
  console.error(`== ${name}`);
  try {
    const detail = (await fn()) ?? {};
    summary.steps.push({ name, ok: true, ms: Date.now() - start, ...detail });
  } catch (e) {
    summary.steps.push({ name, ok: false, ms: Date.now() - start, error: String(e?.stack ?? e) });
    throw e;
  }
}

// --- small conversions ----------------------------------------------------

// A script hash in a stack item (ByteString, base64 of the 20 bytes in
// serialized, little-endian order) as neon-js writes it (big-endian hex).
const hashOfItem = (item) => (item.type === "Any" ? null : u.reverseHex(u.base642hex(item.value)));
const strip0x = (h) => h.replace(/^0x/, "").toLowerCase();

async function nep17Balances(address) {
  // getnep17balances: {address, balance: [{assethash, amount, lastupdatedblock, ...}]}
  const res = await client.getNep17Balances(address);
  const out = { NEO: 0n, GAS: 0n };
  for (const b of res.balance) {
    if (strip0x(b.assethash) === NEO) out.NEO = BigInt(b.amount);
    if (strip0x(b.assethash) === GAS) out.GAS = BigInt(b.amount);
  }
  return out;
}

// invokefunction of a read method that returns one Integer.
async function readInt(contract, method, args = []) {
  const res = await client.invokeFunction(contract, method, args);
  checkEq(res.state, "HALT", `${method} state`);
  checkEq(res.stack[0].type, "Integer", `${method} result type`);
  return BigInt(res.stack[0].value);
}

// --- building, signing and sending a transaction --------------------------

let magic; // from getversion
let sessions; // rpc.sessionenabled, from getversion
let maxIteratorItems; // rpc.maxiteratorresultitems
const policy = {}; // feePerByte and execFeeFactor, read from the Policy contract

// Builds, signs and sends a transaction that runs `script`, paid by `payer`
// (a single-sig account, or the committee multisig signed with the validator
// key). The system fee is what a test run of the script consumes; the network
// fee is what the node's calculatenetworkfee says for the transaction with its
// verification script in place. Returns {hash, sysfee, netfee}.
async function send(script, payer, { scopes = tx.WitnessScope.CalledByEntry, allowedContracts } = {}) {
  const signer = new tx.Signer({ account: payer.scriptHash, scopes, allowedContracts });
  const t = new tx.Transaction({
    nonce: randomInt(2 ** 31),
    validUntilBlock: (await client.getBlockCount()) + 100,
    signers: [signer],
    script,
  });

  // System fee: invokescript with the same signers; the script must HALT.
  const run = await client.invokeScript(u.HexString.fromHex(script), [signer]);
  checkEq(run.state, "HALT", `test run (${run.exception})`);
  t.systemFee = u.BigInteger.fromDecimal(run.gasconsumed, 0);

  // Network fee: the node prices the witness from its verification script,
  // so an unsigned witness with the right verification script is enough.
  const verification = u.HexString.fromBase64(payer.contract.script).toBigEndian();
  t.addWitness(new tx.Witness({ invocationScript: "", verificationScript: verification }));
  const netfee = await client.calculateNetworkFee(t);
  // neon-js can also price standard witnesses itself from two Policy values
  // (witness execution plus size times the fee per byte); both must agree.
  const local = api.calculateNetworkFee(t, Number(policy.feePerByte), Number(policy.execFeeFactor));
  checkEq(local.toString(), netfee, "network fee: neon-js's own calculation vs calculatenetworkfee");
  t.networkFee = u.BigInteger.fromDecimal(netfee, 0);
  t.witnesses = [];

  // Sign the hash of the final transaction (fees included) for this network.
  // (Account.isMultiSig would tell the two kinds apart, but it has the same
  // inverted test as sc.isMultisigContract in neon-core 5.10.1.)
  if (payer === committee) {
    const msg = t.getMessageForSigning(magic);
    const sig = wallet.sign(msg, validator.privateKey);
    t.addWitness(tx.Witness.buildMultiSig(msg, [sig], payer));
  } else {
    t.sign(payer, magic);
  }

  const hash = await client.sendRawTransaction(t);
  checkEq(strip0x(hash), t.hash(), "sendrawtransaction hash");
  log(`sent 0x${t.hash()} sysfee ${t.systemFee} netfee ${t.networkFee}`);
  return { hash: "0x" + t.hash(), sysfee: t.systemFee.toString(), netfee: t.networkFee.toString() };
}

// A NEP-17 transfer script: token.transfer(from, to, amount, data).
function transferScript(token, from, to, amount, data = sc.ContractParam.any(null)) {
  return sc.createScript({
    scriptHash: token,
    operation: "transfer",
    args: [sc.ContractParam.hash160(from.address), sc.ContractParam.hash160(to), sc.ContractParam.integer(amount.toString()), data],
  });
}

// Waits until the transaction is in a block: polls getapplicationlog (an
// error while the transaction is unknown), then checks gettransactionheight
// and getrawtransaction agree. Returns the application log.
async function waitFor(hash) {
  const deadline = Date.now() + Number(opts.timeout) * 1000;
  for (;;) {
    try {
      const appLog = await client.getApplicationLog(hash);
      const height = await client.getTransactionHeight(hash);
      const raw = await client.getRawTransaction(hash, true);
      checkEq(raw.hash, hash, "getrawtransaction hash");
      const block = await client.getBlock(height, true);
      checkEq(raw.blockhash, block.hash, "getrawtransaction blockhash");
      check(block.tx.some((x) => x.hash === hash), `block ${height} lacks ${hash}`);
      log(`${hash} in block ${height}`);
      return { appLog, height };
    } catch (e) {
      if (e instanceof Failure || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// Checks a transfer's application log: one Application execution that
// HALTed with `true` on the stack and the token's Transfer(from, to, amount)
// among its notifications.
function checkTransferLog(appLog, token, from, to, amount) {
  checkEq(appLog.executions.length, 1, "executions");
  const ex = appLog.executions[0];
  checkEq(ex.trigger, "Application", "trigger");
  checkEq(ex.vmstate, "HALT", `vmstate (${ex.exception})`);
  checkEq(ex.stack.length, 1, "stack length");
  checkEq(ex.stack[0].type, "Boolean", "result type");
  checkEq(ex.stack[0].value, true, "transfer result");
  const transfers = ex.notifications.filter((n) => strip0x(n.contract) === token && n.eventname === "Transfer");
  const found = transfers.some((n) => {
    const [f, t, a] = n.state.value;
    return hashOfItem(f) === from && hashOfItem(t) === to && a.type === "Integer" && BigInt(a.value) === BigInt(amount);
  });
  check(found, `no ${token} Transfer ${from} -> ${to} of ${amount} in ${JSON.stringify(ex.notifications)}`);
  return ex;
}

// --- the scenario ---------------------------------------------------------

async function main() {
  await step("version", async () => {
    const v = await client.getVersion();
    magic = v.protocol.network;
    if (opts.magic) checkEq(magic, opts.magic, "network magic");
    checkEq(v.protocol.addressversion, 53, "address version");
    check(v.protocol.msperblock > 0, "msperblock");
    check(v.protocol.validatorscount >= 1, "validatorscount");
    check(v.protocol.maxvaliduntilblockincrement > 100, "maxvaliduntilblockincrement");
    check(Array.isArray(v.protocol.hardforks), "hardforks list");
    check(typeof v.rpc?.sessionenabled === "boolean", "rpc.sessionenabled");
    check(v.rpc.maxiteratorresultitems > 0, "rpc.maxiteratorresultitems");
    sessions = v.rpc.sessionenabled;
    maxIteratorItems = v.rpc.maxiteratorresultitems;
    log(`${v.useragent} network ${magic} sessions ${sessions}`);
    summary.node = v.useragent;
    return { useragent: v.useragent, network: magic, sessions };
  });

  await step("blocks", async () => {
    const count = await client.getBlockCount();
    check(count >= 1, "block count");
    const top = await client.getBlock(count - 1, true);
    checkEq(top.index, count - 1, "block index");
    checkEq(top.hash, await client.getBlockHash(count - 1), "getblockhash");
    const header = await client.getBlockHeader(top.hash, 1);
    checkEq(header.merkleroot, top.merkleroot, "header merkle root");
    const genesis = await client.getBlock(0, true);
    checkEq(genesis.index, 0, "genesis index");
    checkEq(genesis.previousblockhash, "0x" + "0".repeat(64), "genesis previous hash");
    // Without verbose the block comes as base64 of its serialized bytes.
    const raw = await client.getBlock(count - 1);
    checkEq(Buffer.from(raw, "base64").length, top.size, "raw block size");
    return { height: count - 1 };
  });

  await step("contracts", async () => {
    // getnativecontracts and getcontractstate: neon-js rebuilds each NEF
    // (recomputing its checksum) and each manifest from the JSON.
    const natives = await client.getNativeContracts();
    const names = natives.map((n) => n.manifest.name);
    for (const want of ["ContractManagement", "NeoToken", "GasToken", "PolicyContract"]) {
      check(names.includes(want), `native ${want} among ${names}`);
    }
    for (const n of natives) {
      const st = await client.getContractState(n.hash);
      checkEq(st.hash, n.hash, `${n.manifest.name} hash`);
      checkEq(st.id, n.id, `${n.manifest.name} id`);
      let nef;
      try {
        nef = sc.NEF.fromJson(st.nef);
      } catch (e) {
        // neon-core 5.10.1 passes the JSON's base64 script on as hex, so
        // NEF.fromJson rejects every valid NEF; build it from hex instead.
        if (!summary.quirks.some((q) => q.startsWith("neon-core NEF.fromJson"))) {
          summary.quirks.push(`neon-core NEF.fromJson rejects the node's NEF JSON: ${e.message}`);
        }
        const tokens = st.nef.tokens.map((t) => sc.MethodToken.fromJson(t));
        nef = new sc.NEF({ compiler: st.nef.compiler, source: st.nef.source, tokens, script: u.base642hex(st.nef.script) });
      }
      checkEq(nef.checksum, st.nef.checksum, `${n.manifest.name} NEF checksum`);
      const manifest = sc.ContractManifest.fromJson(st.manifest);
      check(isDeepStrictEqual(manifest.toJson(), st.manifest), `${n.manifest.name} manifest round trip`);
    }
    // Natives can also be looked up by name.
    checkEq(strip0x((await client.getContractState("NeoToken")).hash), NEO, "getcontractstate by name");

    checkEq(JSON.stringify(await client.getCommittee()), JSON.stringify([validator.publicKey]), "getcommittee");
    const validators = await client.getNextBlockValidators();
    check(validators.some((v) => v.publickey === validator.publicKey), "getnextblockvalidators");
    checkEq(await client.validateAddress(committee.address), true, "validateaddress(committee)");
    checkEq(await client.validateAddress("NotAnAddress"), false, "validateaddress(junk)");
    check(BigInt(await client.getUnclaimedGas(committee.address)) > 0n, "getunclaimedgas(committee)");
    check(Array.isArray(await client.getRawMemPool()), "getrawmempool");
    // A block's application log: the OnPersist and PostPersist executions.
    const blockLog = await client.getApplicationLog(await client.getBlockHash(1));
    checkEq(blockLog.executions.map((e) => e.trigger).join(), "OnPersist,PostPersist", "block triggers");
    return { natives: names.length };
  });

  await step("balances", async () => {
    // neon-core 5.10.1's sc.isMultisigContract has its PUSH1..PUSH16 test
    // inverted, so it does not recognize standard multisig scripts. That only
    // matters for fee estimates with more than one signature; record it.
    if (!sc.isMultisigContract(u.HexString.fromBase64(committee.contract.script))) {
      summary.quirks.push("neon-core sc.isMultisigContract does not recognize the committee's multisig script");
    }
    const b = await nep17Balances(committee.address);
    check(b.NEO > 0n && b.GAS > 0n, `committee holds NEO and GAS: ${b.NEO} ${b.GAS}`);
    checkEq(await readInt(NEO, "balanceOf", [sc.ContractParam.hash160(committee.address)]), b.NEO, "NEO.balanceOf(committee)");
    checkEq(await readInt(NEO, "totalSupply"), 100_000_000n, "NEO.totalSupply");
    policy.feePerByte = await readInt(CONST.NATIVE_CONTRACT_HASH.PolicyContract, "getFeePerByte");
    policy.execFeeFactor = await readInt(CONST.NATIVE_CONTRACT_HASH.PolicyContract, "getExecFeeFactor");
    const fresh = await nep17Balances(alice.address);
    checkEq(fresh.NEO + fresh.GAS, 0n, "fresh account balances");
    checkEq(await readInt(GAS, "balanceOf", [sc.ContractParam.hash160(alice.address)]), 0n, "GAS.balanceOf(fresh)");
    return { committeeNEO: b.NEO.toString(), committeeGAS: b.GAS.toString() };
  });

  const aliceNEO = 10n;
  const aliceGAS = 1100n * GAS_UNIT; // fees plus the 1000 GAS candidate registration
  await step("transfer-multisig", async () => {
    const before = await nep17Balances(committee.address);
    const neoTx = await send(transferScript(NEO, committee, alice.address, aliceNEO), committee);
    const gasTx = await send(transferScript(GAS, committee, alice.address, aliceGAS), committee);
    for (const [t, token, amount] of [[neoTx, NEO, aliceNEO], [gasTx, GAS, aliceGAS]]) {
      const { appLog } = await waitFor(t.hash);
      checkTransferLog(appLog, token, committee.scriptHash, alice.scriptHash, amount);
    }
    const after = await nep17Balances(committee.address);
    checkEq(after.NEO, before.NEO - aliceNEO, "committee NEO after");
    const a = await nep17Balances(alice.address);
    checkEq(a.NEO, aliceNEO, "alice NEO");
    checkEq(a.GAS, aliceGAS, "alice GAS");
    return { transactions: [neoTx, gasTx] };
  });

  const bobNEO = 3n;
  const bobGAS = 150_000_000n; // 1.5 GAS
  await step("transfer-single-sig", async () => {
    const neoTx = await send(transferScript(NEO, alice, bob.address, bobNEO), alice);
    const gasTx = await send(transferScript(GAS, alice, bob.address, bobGAS), alice);
    const neoLog = await waitFor(neoTx.hash);
    const ex = checkTransferLog(neoLog.appLog, NEO, alice.scriptHash, bob.scriptHash, bobNEO);
    // Moving NEO pays alice the GAS her 10 NEO earned: a GAS Transfer from null.
    const reward = ex.notifications.find((n) => strip0x(n.contract) === GAS && n.state.value[0].type === "Any");
    check(reward && hashOfItem(reward.state.value[1]) === alice.scriptHash, "GAS reward notification for alice");
    const gasLog = await waitFor(gasTx.hash);
    checkTransferLog(gasLog.appLog, GAS, alice.scriptHash, bob.scriptHash, bobGAS);
    const b = await nep17Balances(bob.address);
    checkEq(b.NEO, bobNEO, "bob NEO");
    checkEq(b.GAS, bobGAS, "bob GAS");
    // getnep17transfers: both payments arrive as "received" entries.
    const tr = await client.getNep17Transfers(bob.address, "0", String(Date.now() + 3_600_000));
    checkEq(tr.received.length, 2, "bob's received transfers");
    checkEq(tr.sent.length, 0, "bob's sent transfers");
    for (const r of tr.received) checkEq(r.transferaddress, alice.address, "transfer address");
    return { transactions: [neoTx, gasTx] };
  });

  await step("invoke", async () => {
    const cands = await client.invokeFunction(NEO, "getCandidates");
    checkEq(cands.state, "HALT", "getCandidates state");
    checkEq(cands.stack[0].type, "Array", "getCandidates result type");
    const supply = await readInt(GAS, "totalSupply");
    check(supply > 0n, "GAS.totalSupply");
    checkEq(await readInt(NEO, "balanceOf", [sc.ContractParam.hash160(bob.address)]), bobNEO, "NEO.balanceOf(bob)");

    // invokescript: one script, four calls, four results.
    const script = sc.createScript(
      { scriptHash: GAS, operation: "symbol", args: [] },
      { scriptHash: GAS, operation: "decimals", args: [] },
      { scriptHash: NEO, operation: "balanceOf", args: [sc.ContractParam.hash160(bob.address)] },
      { scriptHash: GAS, operation: "balanceOf", args: [sc.ContractParam.hash160(bob.address)] },
    );
    const res = await client.invokeScript(u.HexString.fromHex(script));
    checkEq(res.state, "HALT", "invokescript state");
    checkEq(res.stack.length, 4, "invokescript stack");
    checkEq(u.base642utf8(res.stack[0].value), "GAS", "GAS.symbol");
    checkEq(res.stack[1].value, "8", "GAS.decimals");
    checkEq(res.stack[2].value, bobNEO, "NEO.balanceOf(bob)");
    checkEq(res.stack[3].value, bobGAS, "GAS.balanceOf(bob)");
    check(BigInt(res.gasconsumed) > 0n, "gasconsumed");
    return { gasTotalSupply: supply.toString(), candidates: cands.stack[0].value.length };
  });

  await step("session", async () => {
    // Register alice as a candidate by paying the registration price in GAS
    // to the NEO contract with her public key as data (Echidna). NEO checks
    // alice's witness, so her signature must also cover calls made by NEO.
    const price = await readInt(NEO, "getRegisterPrice");
    const script = transferScript(GAS, alice, NEO, price, sc.ContractParam.publicKey(alice.publicKey));
    const reg = await send(script, alice, {
      scopes: tx.WitnessScope.CalledByEntry | tx.WitnessScope.CustomContracts,
      allowedContracts: [NEO],
    });
    const { appLog } = await waitFor(reg.hash);
    const ex = checkTransferLog(appLog, GAS, alice.scriptHash, NEO, price);
    const changed = ex.notifications.find((n) => strip0x(n.contract) === NEO && n.eventname === "CandidateStateChanged");
    check(changed, "CandidateStateChanged notification");
    checkEq(u.base642hex(changed.state.value[0].value), alice.publicKey, "registered key");
    checkEq(changed.state.value[1].value, true, "registered");

    const keys = sessions ? await iterateSession() : await iterateExpanded();
    check(keys.includes(alice.publicKey), `alice among ${keys}`);
    return { sessions, candidates: keys.length, transactions: [reg] };
  });
}

// candidateKey reads the public key of a getAllCandidates item, a Struct
// [public key, votes].
function candidateKey(item) {
  checkEq(item.type, "Struct", "candidate item type");
  return u.base642hex(item.value[0].value);
}

// iterateSession: getAllCandidates returns an iterator; with sessions on,
// the node keeps it and answers with a session id and an iterator id.
async function iterateSession() {
  const res = await client.invokeFunction(NEO, "getAllCandidates");
  checkEq(res.state, "HALT", "getAllCandidates state");
  check(typeof res.session === "string" && res.session.length > 0, `session id in ${JSON.stringify(res)}`);
  const iter = res.stack[0];
  checkEq(iter.type, "InteropInterface", "iterator item type");
  checkEq(iter.interface, "IIterator", "iterator interface");
  check(typeof iter.id === "string", "iterator id");

  const items = await client.traverseIterator(res.session, iter.id, 100);
  check(items.length >= 1, "at least one candidate");
  const keys = items.map(candidateKey);
  const more = await client.traverseIterator(res.session, iter.id, 100);
  checkEq(more.length, 0, "iterator exhausted");

  // terminatesession has no neon-js method; any method can be sent as a Query.
  const done = await client.execute(new rpc.Query({ method: "terminatesession", params: [res.session] }));
  checkEq(done, true, "terminatesession");
  let gone = false;
  try {
    await client.traverseIterator(res.session, iter.id, 1);
  } catch (e) {
    gone = true;
    log(`traverseiterator after terminatesession: ${e.message}`);
  }
  check(gone, "traverseiterator must fail after terminatesession");
  return keys;
}

// iterateExpanded: with sessions off, the node expands the iterator into the
// result ({type: "InteropInterface", iterator: [...], truncated: true if
// there were more}) and the
// session methods fail with -601 "Sessions disabled".
async function iterateExpanded() {
  const res = await client.invokeFunction(NEO, "getAllCandidates");
  checkEq(res.state, "HALT", "getAllCandidates state");
  check(res.session === undefined, `no session id in ${JSON.stringify(res)}`);
  const iter = res.stack[0];
  checkEq(iter.type, "InteropInterface", "iterator item type");
  check(Array.isArray(iter.iterator), `expanded iterator in ${JSON.stringify(iter)}`);
  // neo-go leaves "truncated" out when it is false; C# writes it.
  check(!iter.truncated, "iterator truncated");
  check(iter.iterator.length >= 1 && iter.iterator.length <= maxIteratorItems, "candidates within maxiteratorresultitems");
  const zero = "00000000-0000-0000-0000-000000000000";
  for (const [name, call] of [
    ["traverseiterator", () => client.traverseIterator(zero, zero, 1)],
    ["terminatesession", () => client.execute(new rpc.Query({ method: "terminatesession", params: [zero] }))],
  ]) {
    let code;
    try {
      await call();
    } catch (e) {
      code = e.code ?? e.error?.code;
      log(`${name} with sessions off: ${e.message}`);
    }
    checkEq(code, -601, `${name} error code with sessions off (Sessions disabled)`);
  }
  return iter.iterator.map(candidateKey);
}

try {
  await main();
  summary.ok = true;
} catch (e) {
  console.error(e instanceof Failure ? `FAIL: ${e.message}` : e);
}
console.log(JSON.stringify(summary));
process.exit(summary.ok ? 0 : 1);
