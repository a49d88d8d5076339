"""The neo-mamba client scenario: what a dApp written with neo-mamba (PyPI)
does against a Neo N3 node, step by step, each step checking its result.

    python scenario.py <rpc-url> --committee-wif <WIF> [--magic <n>]

<rpc-url> is the node's JSON-RPC address (http://127.0.0.1:30333 for
`n3node run`). The committee WIF is the key of the single validator of a
one-node private network; the committee account is the 1-of-1 multisig account
of that key and holds the NEO and GAS of the genesis block. --magic, if given,
is the network magic the node must report.

Progress goes to stderr. The last line on stdout is a JSON summary:
{"client", "sdk", "ok", "steps": [{"name", "ok", "ms", ...}], "quirks"}.
The exit code is 0 when every step passed. docs/clients.md describes the
scenario and how internal/clienttest runs it.
"""

import argparse
import asyncio
import datetime
import json
import random
import sys
import time
import traceback
from importlib import metadata

from neo3.api import noderpc
from neo3.api.helpers import signing, txbuilder
from neo3.api.wrappers import ChainFacade, GasToken, NeoToken, PolicyContract
from neo3.contracts import contract
from neo3.core import types
from neo3.network.payloads import verification
from neo3.network.payloads.verification import WitnessScope
from neo3.wallet import account, wallet

NEO = NeoToken()
GAS = GasToken()
GAS_UNIT = 100_000_000  # GAS has 8 decimals, NEO none

summary = {"client": "neo-mamba", "sdk": f"neo-mamba {metadata.version('neo-mamba')}", "ok": False, "steps": [], "quirks": []}


# --- a tiny test harness ----------------------------------------------------


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def check_eq(got, want, what):
    check(got == want, f"{what}: got {got!r}, want {want!r}")


def log(*args):
    print("  ", *args, file=sys.stderr)


async def step(name, fn):
    start = time.monotonic()
    print(f"== {name}", file=sys.stderr)
    try:
        detail = await fn() or {}
    except BaseException:
        summary["steps"].append({"name": name, "ok": False, "ms": int((time.monotonic() - start) * 1000), "error": traceback.format_exc()})
        raise
    summary["steps"].append({"name": name, "ok": True, "ms": int((time.monotonic() - start) * 1000), **detail})


# --- the scenario -----------------------------------------------------------


class Scenario:
    def __init__(self, url, committee_wif, magic, timeout):
        self.url = url
        self.want_magic = magic
        self.timeout = timeout
        self.client = noderpc.NeoRpcClient(url, timeout=10)
        # The facade runs read-only calls (test invokes) for us.
        self.facade = ChainFacade(rpc_host=url)

        # A wallet holding the validator key; importing the 1-of-1 multisig
        # address of that key gives the committee account, with the key
        # material to sign for it.
        self.wallet = wallet.Wallet()
        self.validator = account.Account.from_wif(committee_wif)
        self.wallet.account_add(self.validator)
        self.committee = self.wallet.import_multisig_address(1, [self.validator.public_key])
        # Two fresh accounts with new random keys: alice gets NEO and GAS from
        # the committee and pays bob; she also registers as a candidate.
        self.alice = account.Account.create_new()
        self.bob = account.Account.create_new()

    # -- helpers --

    async def nep17_balances(self, acc):
        """getnep17balances as {"NEO": n, "GAS": n}."""
        res = await self.client.get_nep17_balances(acc.address)
        out = {"NEO": 0, "GAS": 0}
        for b in res.balances:
            if b.asset_hash == NEO.hash:
                out["NEO"] = b.amount
            if b.asset_hash == GAS.hash:
                out["GAS"] = b.amount
        return out

    async def read(self, call):
        """A read-only call through the facade (invokescript underneath)."""
        receipt = await self.facade.test_invoke(call)
        check_eq(receipt.state, "HALT", f"test invoke ({receipt.exception})")
        return receipt.result

    async def send(self, script, payer, scope=WitnessScope.CALLED_BY_ENTRY, allowed_contracts=None):
        """Builds, signs and sends a transaction that runs `script`, paid by
        `payer` (a single-sig account or the committee multisig). The system
        fee is what a test run of the script consumes; the network fee is what
        the node's calculatenetworkfee says for the signed transaction."""
        builder = txbuilder.TxBuilder(self.client, script)
        await builder.init()  # reads the network magic with getversion
        builder.tx.nonce = random.randrange(2**32)
        sign = signing.sign_with_multisig_account(payer) if payer.is_multisig else signing.sign_with_account(payer)
        builder.add_signer(sign, verification.Signer(payer.script_hash, scope, allowed_contracts))
        await builder.set_valid_until_block(100)

        # System fee: invokescript with the transaction's signers (what
        # builder.calculate_system_fee() does, but we check the state too).
        run = await self.client.invoke_script(script, builder.tx.signers)
        check_eq(run.state, "HALT", f"test run ({run.exception})")
        builder.tx.system_fee = run.gas_consumed

        # Network fee: sign once (signing refuses zero fees) so the witness is
        # real, ask calculatenetworkfee, then sign again over the final fees.
        builder.tx.network_fee = 1
        await builder.build_and_sign()
        await builder.calculate_network_fee()
        builder.tx.witnesses = []
        tx = await builder.build_and_sign()

        tx_hash = await self.client.send_transaction(tx)
        check_eq(tx_hash, tx.hash(), "sendrawtransaction hash")
        log(f"sent 0x{tx_hash} sysfee {tx.system_fee} netfee {tx.network_fee}")
        return {"hash": f"0x{tx_hash}", "sysfee": str(tx.system_fee), "netfee": str(tx.network_fee)}

    async def wait_for(self, tx_hash):
        """Waits until the transaction is in a block with neo-mamba's own
        receipt polling (getapplicationlog until it stops answering "Unknown
        transaction"/"Unknown script container", then gettransactionheight),
        and checks the block holds it."""
        h = types.UInt256.from_string(tx_hash[2:])
        receipt = await self.client.wait_for_transaction_receipt(h, timeout=self.timeout, retry_delay=0.2)
        tx = await self.client.get_transaction(h)
        check_eq(tx.hash(), h, "getrawtransaction decodes to the same hash")
        block = await self.client.get_block(receipt.included_in_block)
        check(any(t.hash() == h for t in block.transactions), f"block {receipt.included_in_block} lacks {tx_hash}")
        log(f"{tx_hash} in block {receipt.included_in_block}")
        return receipt

    def check_transfer(self, execution, token, source, dest, amount):
        """The execution HALTed with True and notified token's
        Transfer(source, dest, amount)."""
        check_eq(execution.state, "HALT", f"vmstate ({execution.exception})")
        check_eq([i.as_bool() for i in execution.stack], [True], "transfer result")
        found = False
        for n in execution.notifications:
            if n.contract != token.hash or n.event_name != "Transfer":
                continue
            f, t, a = n.state.as_list()
            src = None if f.type == noderpc.StackItemType.ANY else f.as_uint160()
            if src == source and t.as_uint160() == dest and a.as_int() == amount:
                found = True
        check(found, f"no {token.hash} Transfer {source} -> {dest} of {amount} in {execution.notifications}")

    def transfer(self, token, source, dest, amount, data=None):
        """A NEP-17 transfer script: token.transfer(source, dest, amount, data)."""
        return token.transfer(source, dest, amount, data).script

    # -- steps --

    async def version(self):
        v = await self.client.get_version()
        self.magic = v.protocol.network
        if self.want_magic is not None:
            check_eq(self.magic, self.want_magic, "network magic")
        check_eq(v.protocol.address_version, 53, "address version")
        check(v.protocol.ms_per_block > 0, "msperblock")
        check(v.protocol.validators_count >= 1, "validatorscount")
        check(v.protocol.max_valid_until_block_increment > 100, "maxvaliduntilblockincrement")
        check(isinstance(v.protocol.hardforks, dict), "hardforks")
        check(isinstance(v.rpc_session_enabled, bool), "rpc.sessionenabled")
        check(v.rpc_max_iterator_results > 0, "rpc.maxiteratorresultitems")
        self.sessions = v.rpc_session_enabled
        self.max_iterator_items = v.rpc_max_iterator_results
        log(f"{v.user_agent} network {self.magic} hardforks {v.protocol.hardforks} sessions {self.sessions}")
        summary["node"] = v.user_agent
        return {"useragent": v.user_agent, "network": self.magic, "sessions": self.sessions}

    async def blocks(self):
        count = await self.client.get_block_count()
        check(count >= 1, "block count")
        # get_block fetches the raw block and decodes it with neo-mamba's own
        # deserializer; its hash must be the one the node reports.
        top = await self.client.get_block(count - 1)
        check_eq(top.index, count - 1, "block index")
        check_eq(top.hash(), await self.client.get_block_hash(count - 1), "getblockhash")
        check_eq(top.hash(), (await self.client.get_block(top.hash())).hash(), "block by hash")
        header = await self.client.get_block_header(count - 1)
        check_eq(header.hash(), top.hash(), "getblockheader")
        genesis = await self.client.get_block(0)
        check_eq(genesis.prev_hash, types.UInt256.zero(), "genesis previous hash")
        check_eq(top.header.prev_hash, await self.client.get_block_hash(count - 2) if count > 1 else types.UInt256.zero(), "previous hash")
        return {"height": count - 1}

    async def contracts(self):
        # getcontractstate of every native through neo-mamba's strict parsers
        # (it rebuilds the NEF, recomputing its checksum, and the manifest);
        # the raw JSON must round-trip.
        hashes = contract.CONTRACT_HASHES
        natives = [getattr(hashes, k) for k in dir(hashes) if isinstance(getattr(hashes, k), types.UInt160)]
        check(len(natives) >= 9, "neo-mamba's natives")
        for h in natives:
            st = await self.client.get_contract_state(h)
            raw = await self.client._do_post("getcontractstate", [f"0x{h}"])
            check_eq(st.hash, h, f"{st.manifest.name} hash")
            check(st.id < 0, f"{st.manifest.name} id {st.id}")
            check_eq(st.nef.checksum, raw["nef"]["checksum"], f"{st.manifest.name} NEF checksum")
            check_eq(st.manifest.to_json(), raw["manifest"], f"{st.manifest.name} manifest round trip")
        # Natives can also be looked up by name, in any case.
        check_eq((await self.client.get_contract_state("neotoken")).hash, NEO.hash, "getcontractstate by name")

        check_eq(await self.client.get_committee(), (self.validator.public_key,), "getcommittee")
        validators = await self.client.get_next_blockvalidators()
        check(any(v.public_key == self.validator.public_key for v in validators.validators), "getnextblockvalidators")
        check_eq(await self.client.validate_address(self.committee.address), True, "validateaddress(committee)")
        check_eq(await self.client.validate_address("NotAnAddress"), False, "validateaddress(junk)")
        check(await self.client.get_unclaimed_gas(self.committee.address) > 0, "getunclaimedgas(committee)")
        await self.client.get_raw_mempool()
        # A block's application log: the OnPersist and PostPersist executions.
        log_ = await self.client.get_application_log_block(await self.client.get_block_hash(1))
        check_eq([e.trigger for e in log_.executions], ["OnPersist", "PostPersist"], "block triggers")
        return {"natives": len(natives)}

    async def balances(self):
        b = await self.nep17_balances(self.committee)
        check(b["NEO"] > 0 and b["GAS"] > 0, f"committee holds NEO and GAS: {b}")
        check_eq(await self.read(NEO.balance_of(self.committee.address)), b["NEO"], "NEO.balanceOf(committee)")
        check_eq(await self.read(NEO.total_supply()), 100_000_000, "NEO.totalSupply")
        fresh = await self.nep17_balances(self.alice)
        check_eq(fresh, {"NEO": 0, "GAS": 0}, "fresh account balances")
        check_eq(await self.read(GAS.balance_of(self.alice.address)), 0, "GAS.balanceOf(fresh)")
        return {"committeeNEO": str(b["NEO"]), "committeeGAS": str(b["GAS"])}

    ALICE_NEO = 10
    ALICE_GAS = 1100 * GAS_UNIT  # fees plus the 1000 GAS candidate registration

    async def transfer_multisig(self):
        c, a = self.committee, self.alice
        before = await self.nep17_balances(c)
        neo_tx = await self.send(self.transfer(NEO, c.script_hash, a.script_hash, self.ALICE_NEO), c)
        gas_tx = await self.send(self.transfer(GAS, c.script_hash, a.script_hash, self.ALICE_GAS), c)
        for t, token, amount in ((neo_tx, NEO, self.ALICE_NEO), (gas_tx, GAS, self.ALICE_GAS)):
            receipt = await self.wait_for(t["hash"])
            self.check_transfer(receipt.execution, token, c.script_hash, a.script_hash, amount)
        after = await self.nep17_balances(c)
        check_eq(after["NEO"], before["NEO"] - self.ALICE_NEO, "committee NEO after")
        check_eq(await self.nep17_balances(a), {"NEO": self.ALICE_NEO, "GAS": self.ALICE_GAS}, "alice's balances")
        return {"transactions": [neo_tx, gas_tx]}

    BOB_NEO = 3
    BOB_GAS = 150_000_000  # 1.5 GAS

    async def transfer_single_sig(self):
        a, b = self.alice, self.bob
        neo_tx = await self.send(self.transfer(NEO, a.script_hash, b.script_hash, self.BOB_NEO), a)
        gas_tx = await self.send(self.transfer(GAS, a.script_hash, b.script_hash, self.BOB_GAS), a)
        receipt = await self.wait_for(neo_tx["hash"])
        self.check_transfer(receipt.execution, NEO, a.script_hash, b.script_hash, self.BOB_NEO)
        # Moving NEO pays alice the GAS her 10 NEO earned: a GAS Transfer from null.
        rewards = [n for n in receipt.execution.notifications if n.contract == GAS.hash and n.state.as_list()[0].type == noderpc.StackItemType.ANY]
        check(len(rewards) == 1 and rewards[0].state.as_list()[1].as_uint160() == a.script_hash, "GAS reward notification for alice")
        receipt = await self.wait_for(gas_tx["hash"])
        self.check_transfer(receipt.execution, GAS, a.script_hash, b.script_hash, self.BOB_GAS)
        check_eq(await self.nep17_balances(b), {"NEO": self.BOB_NEO, "GAS": self.BOB_GAS}, "bob's balances")
        # getnep17transfers: both payments arrive as "received" entries. The
        # range is explicit: by default it ends "now", which neo-go 0.120.0
        # truncates to whole seconds, so a transfer made in the current second
        # is left out.
        start = datetime.datetime.fromtimestamp(0, datetime.timezone.utc)
        end = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
        tr = await self.client.get_nep17_transfers(b.address, start, end)
        check_eq(len(tr.received), 2, "bob's received transfers")
        check_eq(len(tr.sent), 0, "bob's sent transfers")
        for r in tr.received:
            check_eq(r.transfer_address, a.address, "transfer address")
        return {"transactions": [neo_tx, gas_tx]}

    async def invoke(self):
        # invokefunction through the plain RPC client.
        cands = await self.client.invoke_function(NEO.hash, "getCandidates")
        check_eq(cands.state, "HALT", "getCandidates state")
        check_eq(cands.stack[0].type, noderpc.StackItemType.ARRAY, "getCandidates result type")
        supply = await self.client.invoke_function(GAS.hash, "totalSupply")
        check(supply.stack[0].as_int() > 0, "GAS.totalSupply")
        bal = await self.client.invoke_function(NEO.hash, "balanceOf", [self.bob.script_hash])
        check_eq(bal.stack[0].as_int(), self.BOB_NEO, "NEO.balanceOf(bob)")
        # The same through the typed wrapper (invokescript underneath).
        check_eq(len(await self.read(NEO.candidates_registered())), len(cands.stack[0].value), "candidates via the wrapper")

        # invokescript: one script, four calls, four results.
        script = b"".join(
            c.script for c in (GAS.symbol(), GAS.decimals(), NEO.balance_of(self.bob.script_hash), GAS.balance_of(self.bob.script_hash))
        )
        res = await self.client.invoke_script(script)
        check_eq(res.state, "HALT", "invokescript state")
        check_eq(len(res.stack), 4, "invokescript stack")
        check_eq(res.stack[0].as_str(), "GAS", "GAS.symbol")
        check_eq(res.stack[1].as_int(), 8, "GAS.decimals")
        check_eq(res.stack[2].as_int(), self.BOB_NEO, "NEO.balanceOf(bob)")
        check_eq(res.stack[3].as_int(), self.BOB_GAS, "GAS.balanceOf(bob)")
        check(res.gas_consumed > 0, "gasconsumed")
        # Policy values through their wrappers.
        check(await self.read(PolicyContract().fee_per_byte()) > 0, "Policy.getFeePerByte")
        return {"gasTotalSupply": str(supply.stack[0].as_int()), "candidates": len(cands.stack[0].value)}

    async def session(self):
        a = self.alice
        # Register alice as a candidate by paying the registration price in
        # GAS to the NEO contract with her public key as data (Echidna). NEO
        # checks alice's witness, so her signature must also cover calls made
        # by NEO.
        price = await self.read(NEO.candidate_registration_price())
        reg = await self.send(
            self.transfer(GAS, a.script_hash, NEO.hash, price, a.public_key),
            a,
            scope=WitnessScope.CALLED_BY_ENTRY | WitnessScope.CUSTOM_CONTRACTS,
            allowed_contracts=[NEO.hash],
        )
        receipt = await self.wait_for(reg["hash"])
        self.check_transfer(receipt.execution, GAS, a.script_hash, NEO.hash, price)
        changed = [n for n in receipt.execution.notifications if n.contract == NEO.hash and n.event_name == "CandidateStateChanged"]
        check_eq(len(changed), 1, "CandidateStateChanged notifications")
        key, registered = changed[0].state.as_list()[:2]
        check_eq(key.as_public_key(), a.public_key, "registered key")
        check_eq(registered.as_bool(), True, "registered")

        if self.sessions:
            keys = await self.iterate_session()
        else:
            keys = await self.iterate_expanded()
        check(a.public_key in keys, f"alice among {keys}")
        return {"sessions": self.sessions, "candidates": len(keys), "transactions": [reg]}

    async def iterate_session(self):
        """getAllCandidates with sessions on: the node keeps the iterator and
        answers with a session id and an iterator id. neo-mamba 3.3.0 parses
        iterators only in their expanded form (sessions off), so its
        invoke_function rejects this answer, and it has no traverseiterator
        or terminatesession; the SDK's JSON-RPC transport (_do_post) sends
        them."""
        try:
            await self.client.invoke_function(NEO.hash, "getAllCandidates")
            summary["quirks"].append("neo-mamba invoke_function accepted a session iterator")
        except ValueError as e:
            summary["quirks"].append(f"neo-mamba invoke_function rejects a session iterator: {e}")
            # That call opened a session the SDK never saw; it expires on its own.
        res = await self.client._do_post("invokefunction", [f"0x{NEO.hash}", "getAllCandidates", [], []])
        check_eq(res["state"], "HALT", "getAllCandidates state")
        session = res.get("session")
        check(isinstance(session, str) and session, f"session id in {res}")
        it = res["stack"][0]
        check_eq(it["type"], "InteropInterface", "iterator item type")
        check_eq(it.get("interface"), "IIterator", "iterator interface")
        check(isinstance(it.get("id"), str), "iterator id")

        # traverseiterator: each value is a Struct [public key, votes]; the
        # SDK's stack item parser reads them.
        items = await self.client._do_post("traverseiterator", [session, it["id"], 100])
        keys = []
        for raw in items:
            item = noderpc.ExecutionResult._parse_stack_item(raw)
            check_eq(item.type, noderpc.StackItemType.STRUCT, "candidate item type")
            keys.append(item.value[0].as_public_key())
        check_eq(await self.client._do_post("traverseiterator", [session, it["id"], 100]), [], "iterator exhausted")

        check_eq(await self.client._do_post("terminatesession", [session]), True, "terminatesession")
        try:
            await self.client._do_post("traverseiterator", [session, it["id"], 1])
            gone = False
        except noderpc.JsonRpcError as e:
            gone = True
            log(f"traverseiterator after terminatesession: {e}")
        check(gone, "traverseiterator must fail after terminatesession")
        return keys

    async def iterate_expanded(self):
        """getAllCandidates with sessions off: the node expands the iterator
        into the result ({"type": "InteropInterface", "iterator": [...]},
        with "truncated": true if there were more), the form the SDK's invoke_function parses.
        The session methods fail."""
        res = await self.client.invoke_function(NEO.hash, "getAllCandidates")
        check_eq(res.state, "HALT", "getAllCandidates state")
        check_eq(len(res.stack), 1, "stack size")
        it = res.stack[0]
        check_eq(it.type, noderpc.StackItemType.INTEROP_INTERFACE, "iterator item type")
        keys = []
        for item in it.value:
            check_eq(item.type, noderpc.StackItemType.STRUCT, "candidate item type")
            keys.append(item.value[0].as_public_key())
        check(len(keys) <= self.max_iterator_items, "at most maxiteratorresultitems")
        raw = await self.client._do_post("invokefunction", [f"0x{NEO.hash}", "getAllCandidates", [], []])
        check("session" not in raw, f"no session id in {raw}")
        # neo-go leaves "truncated" out when it is false; C# writes it.
        check(not raw["stack"][0].get("truncated", False), "iterator truncated")
        for method, params in (("traverseiterator", ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000", 1]),
                               ("terminatesession", ["00000000-0000-0000-0000-000000000000"])):
            try:
                await self.client._do_post(method, params)
                code = None
            except noderpc.JsonRpcError as e:
                code = e.code
                log(f"{method} with sessions off: {e}")
            check_eq(code, -601, f"{method} error code with sessions off (Sessions disabled)")
        return keys

    async def run(self):
        try:
            await step("version", self.version)
            await step("blocks", self.blocks)
            await step("contracts", self.contracts)
            await step("balances", self.balances)
            await step("transfer-multisig", self.transfer_multisig)
            await step("transfer-single-sig", self.transfer_single_sig)
            await step("invoke", self.invoke)
            await step("session", self.session)
        finally:
            await self.client.close()
            if self.facade._rpc_client is not None:
                await self.facade._rpc_client.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rpc_url")
    p.add_argument("--committee-wif", required=True)
    p.add_argument("--magic", type=int)
    p.add_argument("--timeout", type=float, default=60, help="seconds to wait for a transaction")
    args = p.parse_args()
    summary["rpc"] = args.rpc_url

    async def go():
        await Scenario(args.rpc_url, args.committee_wif, args.magic, args.timeout).run()

    try:
        asyncio.run(go())
        summary["ok"] = True
    except Failure as e:
        print(f"FAIL: {e}", file=sys.stderr)
    except Exception:
        traceback.print_exc()
    print(json.dumps(summary))
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
