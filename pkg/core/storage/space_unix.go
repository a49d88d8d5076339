//go:build linux || darwin

package storage

import "golang.org/x/sys/unix"

// FreeSpace returns the bytes available to an unprivileged user on the
// file system holding path.
func FreeSpace(path string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil // the field types differ by OS
}
