package manifest

import (
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Sizes of the fixed-size byte parameter types.
const (
	publicKeyLen = 33
	signatureLen = 64
)

// TypeMatches reports whether item may be passed where a parameter of type pt
// is declared (C# ApplicationEngine.CheckItemType, used for notifications
// from HF_Basilisk). Pointers never match; Null matches Any and the byte,
// hash, key, signature, array, map and interop types.
func TypeMatches(pt smartcontract.ParamType, item stackitem.Item) bool {
	vt := item.Type()
	if vt == stackitem.PointerT {
		return false
	}
	switch pt {
	case smartcontract.AnyType:
		return true
	case smartcontract.BoolType:
		return vt == stackitem.BooleanT
	case smartcontract.IntegerType:
		return vt == stackitem.IntegerT
	case smartcontract.ByteArrayType:
		return vt == stackitem.ByteStringT || vt == stackitem.BufferT || vt == stackitem.AnyT
	case smartcontract.StringType:
		if vt != stackitem.ByteStringT && vt != stackitem.BufferT {
			return false
		}
		b, _ := item.TryBytes()
		return utf8.Valid(b)
	case smartcontract.Hash160Type:
		return bytesOfLen(item, hash.Uint160Size)
	case smartcontract.Hash256Type:
		return bytesOfLen(item, hash.Uint256Size)
	case smartcontract.PublicKeyType:
		return bytesOfLen(item, publicKeyLen)
	case smartcontract.SignatureType:
		return bytesOfLen(item, signatureLen)
	case smartcontract.ArrayType:
		return vt == stackitem.AnyT || vt == stackitem.ArrayT || vt == stackitem.StructT
	case smartcontract.MapType:
		return vt == stackitem.AnyT || vt == stackitem.MapT
	case smartcontract.InteropInterfaceType:
		return vt == stackitem.AnyT || vt == stackitem.InteropT
	default:
		return false
	}
}

func bytesOfLen(item stackitem.Item, n int) bool {
	switch vt := item.Type(); vt {
	case stackitem.AnyT:
		return true
	case stackitem.ByteStringT, stackitem.BufferT:
		b, _ := item.TryBytes()
		return len(b) == n
	default:
		return false
	}
}
