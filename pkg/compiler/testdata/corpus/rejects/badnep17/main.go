// want: manifest is not compliant with 'NEP-17': 'balanceOf' method has wrong safe flag: expected true
package badnep17

import "github.com/nspcc-dev/neo-go/pkg/interop"

func Symbol() string { return "B" }

func Decimals() int { return 8 }

func TotalSupply() int { return 1 }

func BalanceOf(account interop.Hash160) int { return 0 }

func Transfer(from, to interop.Hash160, amount int, data any) bool { return false }
