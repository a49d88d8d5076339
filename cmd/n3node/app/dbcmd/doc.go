// Package dbcmd is `n3node db`: restore (import a chain dump), dump (write
// one) and state (a height's hash and state root, an application log) over a
// chain database opened offline with the options the node uses
// (storage.OptionsFromConfig).
package dbcmd
