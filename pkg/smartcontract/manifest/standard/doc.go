// Package standard knows the ABIs of the NEP standards (NEP-11 in both
// variants, NEP-17, -22, -24, -24-Payable, -26, -27, -29, -30, -31) as
// neo-go 0.120.0 defines them: Check is the compiler's check of the
// standards a configuration claims (neo-go's error texts, parameter names
// not checked); Complies and Drop let the RPC binding generator recognise
// a standard and leave its methods and events to the standard's client
// package.
//
// The ABIs are one table of signature lines (specs), so each standard is
// written once.
package standard
