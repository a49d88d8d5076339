//go:build !unix

package nodecmd

import "os"

// reloadSignals: none outside Unix.
var reloadSignals []os.Signal

func reloadKind(os.Signal) int { return 0 }
