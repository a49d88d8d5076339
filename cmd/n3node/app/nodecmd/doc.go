// Package nodecmd is `n3node run`: it builds a configuration from the flags
// (an embedded network, a configuration file, overrides), sets up logging and
// the memory limit, runs pkg/node and shuts it down on SIGINT or SIGTERM (a
// second signal exits at once).
package nodecmd
