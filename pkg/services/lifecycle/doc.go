// Package lifecycle is the start-once, stop-once state that the node's
// services (oracle, notary) share: Start runs the service's start
// function the first time it is called unless the service was stopped;
// Shutdown runs the stop function once, and only if the service had
// started. A stopped service cannot start again. Both are safe to call
// from any goroutine; the functions run under the lifecycle's lock, so
// they must not call Start or Shutdown themselves.
package lifecycle
