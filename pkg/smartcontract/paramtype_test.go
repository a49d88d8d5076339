package smartcontract

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParamType(t *testing.T) {
	all := []ParamType{AnyType, BoolType, IntegerType, ByteArrayType, StringType, Hash160Type, Hash256Type,
		PublicKeyType, SignatureType, ArrayType, MapType, InteropInterfaceType, VoidType}
	for _, pt := range all {
		p, err := ParseParamType(pt.String())
		require.NoError(t, err)
		require.Equal(t, pt, p)
		data, err := json.Marshal(pt)
		require.NoError(t, err)
		var back ParamType
		require.NoError(t, json.Unmarshal(data, &back))
		require.Equal(t, pt, back)
		c, err := ConvertToParamType(int64(pt))
		require.NoError(t, err)
		require.Equal(t, pt, c)
	}
	for alias, want := range map[string]ParamType{"bool": BoolType, "INT": IntegerType, "bytes": ByteArrayType,
		"bytestring": ByteArrayType, "filebytes": ByteArrayType, "key": PublicKeyType, "struct": ArrayType} {
		p, err := ParseParamType(alias)
		require.NoError(t, err)
		require.Equal(t, want, p)
	}
	_, err := ParseParamType("nope")
	require.Error(t, err)
	_, err = ConvertToParamType(0x42)
	require.ErrorIs(t, err, ErrUnknownParamType)
	_, err = ConvertToParamType(0x100000011)
	require.ErrorIs(t, err, ErrUnknownParamType)
	c, err := ConvertToParamType(-1)
	require.NoError(t, err)
	require.Equal(t, UnknownType, c)
	require.Equal(t, "", ParamType(0x42).String())
}
