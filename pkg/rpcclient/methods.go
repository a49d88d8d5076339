package rpcclient

import (
	"context"
	"errors"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Typed wrappers of the node methods the wallet tools, the benchmark and
// the tests use. Parameters are sent in the form neo-go's client sends
// them (hashes as "0x..." reversed hex, addresses in base58, transactions
// and scripts in base64).

// GetVersion returns the node's version and protocol settings.
func (c *Client) GetVersion(ctx context.Context) (*Version, error) {
	v := new(Version)
	if err := c.Call(ctx, "getversion", nil, v); err != nil {
		return nil, err
	}
	return v, nil
}

// GetNativeContracts returns the states of the native contracts.
func (c *Client) GetNativeContracts(ctx context.Context) ([]state.Contract, error) {
	var cs []state.Contract
	if err := c.Call(ctx, "getnativecontracts", nil, &cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// GetContractState returns a contract's state by hash.
func (c *Client) GetContractState(ctx context.Context, h hash.Uint160) (*state.Contract, error) {
	return c.getContractState(ctx, h.String())
}

// GetContractStateByID returns a contract's state by id (negative for
// native contracts).
func (c *Client) GetContractStateByID(ctx context.Context, id int32) (*state.Contract, error) {
	return c.getContractState(ctx, int64(id))
}

func (c *Client) getContractState(ctx context.Context, p any) (*state.Contract, error) {
	cs := new(state.Contract)
	if err := c.Call(ctx, "getcontractstate", []any{p}, cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// InvokeFunction test-runs method of contract with params. Signers may be
// nil (then none are sent); the first signer is the sender.
func (c *Client) InvokeFunction(ctx context.Context, contract hash.Uint160, method string, params []smartcontract.Parameter, signers []transaction.Signer) (*InvokeResult, error) {
	return c.InvokeFunctionHistoric(ctx, Historic{}, contract, method, params, signers)
}

// InvokeScript test-runs a script with the given signers (nil: none).
func (c *Client) InvokeScript(ctx context.Context, script []byte, signers []transaction.Signer) (*InvokeResult, error) {
	return c.InvokeScriptHistoric(ctx, Historic{}, script, signers)
}

// Historic selects the chain state a test invocation runs against: the
// zero value is the current state (invokefunction, invokescript),
// AtHeight and WithState an older one (invokefunctionhistoric,
// invokescripthistoric; the node must keep old states).
type Historic struct {
	height uint32
	root   hash.Uint256
	mode   byte // 0 current, 'h' height, 's' state root or block hash
}

// AtHeight is the state after the block at height h.
func AtHeight(h uint32) Historic { return Historic{height: h, mode: 'h'} }

// WithState is the state of a state root, or after a block, by hash.
func WithState(h hash.Uint256) Historic { return Historic{root: h, mode: 's'} }

// param is the first parameter of an invoke*historic call; nil for the
// current state.
func (at Historic) param() any {
	switch at.mode {
	case 'h':
		return at.height
	case 's':
		return at.root.StringLE()
	}
	return nil
}

// InvokeFunctionHistoric is InvokeFunction against the state at.
func (c *Client) InvokeFunctionHistoric(ctx context.Context, at Historic, contract hash.Uint160, method string, params []smartcontract.Parameter, signers []transaction.Signer) (*InvokeResult, error) {
	if params == nil {
		params = []smartcontract.Parameter{}
	}
	return c.invoke(ctx, "invokefunction", at, signers, contract.String(), method, params)
}

// InvokeScriptHistoric is InvokeScript against the state at.
func (c *Client) InvokeScriptHistoric(ctx context.Context, at Historic, script []byte, signers []transaction.Signer) (*InvokeResult, error) {
	return c.invoke(ctx, "invokescript", at, signers, script)
}

// invoke calls method (with the "historic" suffix and the state first
// when at selects one) with args and the signers, if any.
func (c *Client) invoke(ctx context.Context, method string, at Historic, signers []transaction.Signer, args ...any) (*InvokeResult, error) {
	var p []any
	if a := at.param(); a != nil {
		method += "historic"
		p = append(p, a)
	}
	p = append(p, args...)
	if signers != nil {
		p = append(p, signers)
	}
	r := new(InvokeResult)
	if err := c.Call(ctx, method, p, r); err != nil {
		return nil, err
	}
	return r, nil
}

// CalculateNetworkFee asks the node for the network fee tx needs. The
// witnesses of tx must carry the verification scripts of standard
// accounts (invocation scripts may be empty); for a deployed contract
// account, an empty verification script and (if its verify method takes
// parameters) an invocation script.
func (c *Client) CalculateNetworkFee(ctx context.Context, tx *transaction.Transaction) (int64, error) {
	b := tx.Bytes()
	if b == nil {
		return 0, errors.New("transaction cannot be encoded")
	}
	var r struct {
		Value int64 `json:"networkfee,string"`
	}
	if err := c.Call(ctx, "calculatenetworkfee", []any{b}, &r); err != nil {
		return 0, err
	}
	return r.Value, nil
}

// GetNEP17Balances returns every NEP-17 balance of an account.
func (c *Client) GetNEP17Balances(ctx context.Context, account hash.Uint160) (*NEP17Balances, error) {
	r := new(NEP17Balances)
	if err := c.Call(ctx, "getnep17balances", []any{neorpc.Uint160ToAddress(account)}, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetNEP11Balances returns every NEP-11 balance (tokens by id) of an
// account.
func (c *Client) GetNEP11Balances(ctx context.Context, account hash.Uint160) (*result.NEP11Balances, error) {
	r := new(result.NEP11Balances)
	if err := c.Call(ctx, "getnep11balances", []any{neorpc.Uint160ToAddress(account)}, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetNEP17Transfers returns an account's transfers. start and stop are
// timestamps in milliseconds; nil leaves them to the node (its default is
// the last 7 days). stop without start is not allowed.
func (c *Client) GetNEP17Transfers(ctx context.Context, account hash.Uint160, start, stop *uint64) (*NEP17Transfers, error) {
	p := []any{neorpc.Uint160ToAddress(account)}
	if start != nil {
		p = append(p, *start)
		if stop != nil {
			p = append(p, *stop)
		}
	} else if stop != nil {
		return nil, errors.New("stop timestamp without start")
	}
	r := new(NEP17Transfers)
	if err := c.Call(ctx, "getnep17transfers", p, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetUnclaimedGas returns the GAS an account could claim.
func (c *Client) GetUnclaimedGas(ctx context.Context, account hash.Uint160) (*UnclaimedGas, error) {
	r := new(UnclaimedGas)
	if err := c.Call(ctx, "getunclaimedgas", []any{neorpc.Uint160ToAddress(account)}, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetApplicationLog returns the executions of a transaction or block. An
// unknown container gives *neorpc.Error with code -105 (errors.Is
// neorpc.ErrUnknownScriptContainer).
func (c *Client) GetApplicationLog(ctx context.Context, h hash.Uint256) (*ApplicationLog, error) {
	r := new(ApplicationLog)
	if err := c.Call(ctx, "getapplicationlog", []any{h.String()}, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetRawTransaction returns a transaction from the chain or the mempool.
func (c *Client) GetRawTransaction(ctx context.Context, h hash.Uint256) (*transaction.Transaction, error) {
	var b []byte
	if err := c.Call(ctx, "getrawtransaction", []any{h.String()}, &b); err != nil {
		return nil, err
	}
	return transaction.NewTransactionFromOwnedBytes(b)
}

// GetRawTransactionVerbose returns a transaction with its chain data.
func (c *Client) GetRawTransactionVerbose(ctx context.Context, h hash.Uint256) (*TransactionOutputRaw, error) {
	r := new(TransactionOutputRaw)
	if err := c.Call(ctx, "getrawtransaction", []any{h.String(), true}, r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetTransactionHeight returns the height of the block holding a
// transaction.
func (c *Client) GetTransactionHeight(ctx context.Context, h hash.Uint256) (uint32, error) {
	var n uint32
	err := c.Call(ctx, "gettransactionheight", []any{h.String()}, &n)
	return n, err
}

// SendTransaction sends a signed transaction and returns the hash the
// node reports.
func (c *Client) SendTransaction(ctx context.Context, tx *transaction.Transaction) (hash.Uint256, error) {
	b := tx.Bytes()
	if b == nil {
		return hash.Uint256{}, errors.New("transaction cannot be encoded")
	}
	s, err := c.SendRawTransaction(ctx, b)
	if err != nil {
		return hash.Uint256{}, err
	}
	return hash.Uint256DecodeStringLE(s)
}

// GetCandidates returns the registered candidates and their votes.
func (c *Client) GetCandidates(ctx context.Context) ([]Candidate, error) {
	var r []Candidate
	if err := c.Call(ctx, "getcandidates", nil, &r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetNextBlockValidators returns the validators of the next block.
func (c *Client) GetNextBlockValidators(ctx context.Context) ([]Validator, error) {
	var r []Validator
	if err := c.Call(ctx, "getnextblockvalidators", nil, &r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetCommittee returns the committee's public keys.
func (c *Client) GetCommittee(ctx context.Context) ([]*keys.PublicKey, error) {
	var r []*keys.PublicKey
	if err := c.Call(ctx, "getcommittee", nil, &r); err != nil {
		return nil, err
	}
	return r, nil
}

// GetBlockHash returns the hash of the block at a height.
func (c *Client) GetBlockHash(ctx context.Context, index uint32) (hash.Uint256, error) {
	var s string
	if err := c.Call(ctx, "getblockhash", []any{index}, &s); err != nil {
		return hash.Uint256{}, err
	}
	return hash.Uint256DecodeStringLE(s)
}
