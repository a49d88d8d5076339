package utilcmd

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"github.com/n3node/n3node/cmd/n3node/app/listing"
	"io"
	"math/big"
	"text/tabwriter"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// DumpTx prints a transaction's status as neo-go's DumpApplicationLog:
// hash, whether it is on chain, then its block and success or (off chain)
// its ValidUntilBlock and the number of fallbacks (fallbacks >= 0); with
// verbose the signers, fees, script and its instructions and, on chain,
// the fault exceptions.
func DumpTx(out io.Writer, tx *transaction.Transaction, log *rpcclient.ApplicationLog, block *hash.Uint256, verbose bool, fallbacks int) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Hash:\t%s\n", tx.Hash().StringLE())
	fmt.Fprintf(&b, "OnChain:\t%t\n", log != nil)
	if log == nil {
		fmt.Fprintf(&b, "ValidUntil:\t%d\n", tx.ValidUntilBlock)
		if fallbacks >= 0 {
			fmt.Fprintf(&b, "Fallbacks:\t%d\n", fallbacks)
		}
	} else {
		if block != nil {
			fmt.Fprintf(&b, "BlockHash:\t%s\n", block.StringLE())
		}
		if len(log.Executions) != 1 {
			b.WriteString("Success:\tunknown (no execution data)\n")
		} else {
			fmt.Fprintf(&b, "Success:\t%t\n", log.Executions[0].VMState == vmstate.Halt)
		}
	}
	if verbose {
		for _, s := range tx.Signers {
			fmt.Fprintf(&b, "Signer:\t%s (%s)\n", address.FromUint160(s.Account), s.Scopes)
		}
		fmt.Fprintf(&b, "SystemFee:\t%s GAS\n", nep17.FormatAmount(big.NewInt(tx.SystemFee), 8))
		fmt.Fprintf(&b, "NetworkFee:\t%s GAS\n", nep17.FormatAmount(big.NewInt(tx.NetworkFee), 8))
		fmt.Fprintf(&b, "Script:\t%s\n", base64.StdEncoding.EncodeToString(tx.Script))
		if fallbacks < 0 {
			if err := listing.Write(&b, tx.Script, nil); err != nil {
				return err
			}
			if log != nil {
				for _, e := range log.Executions {
					if e.VMState != vmstate.Halt {
						fmt.Fprintf(&b, "Exception:\t%s\n", e.FaultException)
					}
				}
			}
		}
	}
	return Tabbed(out, b.Bytes(), 4, '\t')
}

// Tabbed writes lines through a tab writer (min width 0, tab width 4) with
// the given padding and pad character, as neo-go's query commands do.
func Tabbed(out io.Writer, b []byte, padding int, pad byte) error {
	tabw := 2
	if pad == '\t' {
		tabw = 4
	}
	w := tabwriter.NewWriter(out, 0, tabw, padding, pad, 0)
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}
