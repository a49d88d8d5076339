package vmcmd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// The options of the REPL's load commands and reset, as neo-go's VM CLI
// takes them: --historic N (the state after block N, in a fake block
// N+1), --gas N (the GAS limit, datoshi), --hash H (loadnef, loadgo: the
// contract's hash), and the transaction's signers after a "--"
// (neo-go's signer syntax, account[:scope[:...]]).

// loadFlags are a load command's options.
type loadFlags struct {
	historic *uint32
	gas      *int64
	hash     *hash.Uint160
	signers  []transaction.Signer
}

// loadFlagNames are the options each command takes.
var (
	flagsHistoric     = []string{"historic"}
	flagsLoad         = []string{"historic", "gas"}
	flagsLoadContract = []string{"historic", "gas", "hash"}
)

// parseLoadFlags splits args into options (--name value or --name=value,
// anywhere before a "--"), positional arguments and signers.
func parseLoadFlags(args []string, allowed []string) (loadFlags, []string, error) {
	var (
		f   loadFlags
		pos []string
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == txsend.CosignersSeparator {
			if i+1 == len(args) {
				return f, nil, fmt.Errorf("invalid parameter: signers expected after `%s`, got none", a)
			}
			signers, err := txsend.ParseSigners(args[i+1:])
			if err != nil {
				return f, nil, fmt.Errorf("invalid parameter: failed to parse signers: %w", err)
			}
			f.signers = signers
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" || a[1] >= '0' && a[1] <= '9' { // -6: an ID
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		known := false
		for _, n := range allowed {
			known = known || n == name
		}
		if !known {
			return f, nil, fmt.Errorf("flag provided but not defined: -%s", name)
		}
		if !hasVal {
			if i+1 == len(args) {
				return f, nil, fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			val = args[i]
		}
		if err := f.set(name, val); err != nil {
			return f, nil, fmt.Errorf("invalid value %q for flag -%s: %w", val, name, err)
		}
	}
	return f, pos, nil
}

func (f *loadFlags) set(name, val string) error {
	switch name {
	case "historic":
		n, err := strconv.ParseUint(val, 10, 32)
		if err != nil {
			return err
		}
		h := uint32(n)
		f.historic = &h
	case "gas":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return err
		}
		f.gas = &n
	case "hash":
		h, err := txsend.ParseAddress(val)
		if err != nil {
			return err
		}
		f.hash = &h
	}
	return nil
}

// context makes a fresh test context for tx over the chain's current
// state or, with --historic, the state after that block; its GAS limit is
// --gas, else gasDefault.
func (s *session) context(tx *transaction.Transaction, f loadFlags, gasDefault int64) (*interop.Context, error) {
	var (
		ic  *interop.Context
		err error
	)
	if f.historic != nil {
		ic, err = s.chain.GetTestHistoricVM(trigger.Application, tx, *f.historic+1)
		if err != nil {
			return nil, fmt.Errorf("failed to create historic VM for height %d: %w", *f.historic, err)
		}
	} else if ic, err = s.chain.GetTestVM(trigger.Application, tx, nil); err != nil {
		return nil, fmt.Errorf("failed to create VM: %w", err)
	}
	gas := gasDefault
	if f.gas != nil {
		gas = *f.gas
	}
	ic.VM.SetGasLimit(gas)
	return ic, nil
}

// fakeTx is the container of a loaded script, as neo-go's VM CLI makes
// one: the script and the signers, valid until the block after the state
// the script runs on.
func (s *session) fakeTx(script []byte, f loadFlags) *transaction.Transaction {
	height := s.chain.BlockHeight()
	if f.historic != nil {
		height = *f.historic
	}
	return &transaction.Transaction{Script: script, Signers: f.signers, ValidUntilBlock: height + 1}
}

var errNoSigners = errors.New("invalid parameter: this command takes no signers")
