//go:build !linux && !darwin

package storage

import "errors"

// FreeSpace is not implemented here: the space reserve is not enforced.
func FreeSpace(string) (uint64, error) {
	return 0, errors.New("storage: free space unknown on this system")
}
