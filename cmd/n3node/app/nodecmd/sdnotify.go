package nodecmd

import (
	"log/slog"
	"net"
	"os"
)

// systemd service states (sd_notify(3)).
const (
	sdReady     = "READY=1"
	sdReloading = "RELOADING=1"
	sdStopping  = "STOPPING=1"
)

// sdNotify sends state to the socket NOTIFY_SOCKET names (set by systemd
// for Type=notify units; a leading @ is an abstract socket). Without it
// nothing happens.
func sdNotify(state string) error {
	path := os.Getenv("NOTIFY_SOCKET")
	if path == "" {
		return nil
	}
	if path[0] == '@' {
		path = "\x00" + path[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(state))
	return err
}

// notifySystemd sends state, logging a failure (the node runs on).
func notifySystemd(log *slog.Logger, state string) {
	if err := sdNotify(state); err != nil {
		log.Warn("failed to notify systemd", "state", state, "err", err)
	}
}
