// Package block decodes the fake block header of invokecontainedscript
// exactly as neo-go 0.120.0's block.Header.UnmarshalJSON does. It is named
// block because encoding/json's error texts name the package of the type
// being decoded ("Go value of type block.baseAux"), and those texts are
// part of the answers.
package block
