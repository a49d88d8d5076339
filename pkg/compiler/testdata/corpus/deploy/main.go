package deploy

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

var owner []byte

func _deploy(data any, isUpdate bool) {
	if isUpdate {
		return
	}
	ctx := storage.GetContext()
	storage.Put(ctx, "owner", runtime.GetCallingScriptHash())
	if data != nil {
		storage.Put(ctx, "data", data.([]byte))
	}
}

func Owner() []byte {
	if owner == nil {
		owner = storage.Get(storage.GetContext(), "owner").([]byte)
	}
	return owner
}
