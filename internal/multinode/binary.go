package multinode

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// EnvN3NodeBinary names the environment variable that, when set, gives
// the n3node binary to run instead of building one.
const EnvN3NodeBinary = "N3NODE_BIN"

// BuildN3Node builds cmd/n3node into dir and returns the binary's path
// (or returns $N3NODE_BIN when set).
func BuildN3Node(ctx context.Context, dir string) (string, error) {
	if bin := os.Getenv(EnvN3NodeBinary); bin != "" {
		return bin, nil
	}
	root, err := neogo.RepoRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "n3node")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/n3node")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("multinode: go build ./cmd/n3node: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// NeoGoBinary returns the neo-go 0.120.0 binary ($NEOGO, or fetched and
// cached by scripts/get-neogo.sh).
func NeoGoBinary(ctx context.Context) (string, error) { return neogo.Binary(ctx) }
