// Package emit builds NeoVM scripts, emitting exactly what C# ScriptBuilder
// and its neo extensions (EmitPush, CreateArray, CreateMap, CreateStruct,
// EmitDynamicCall) emit, so scripts built here hash the same as the
// reference's (tested on the native contract deploy scripts and the
// standard signature script).
//
// Every function appends to an io.BinWriter; errors (an integer beyond 32
// bytes, an unsupported value, a non-jump opcode given to Jmp) are recorded
// in the writer's sticky Err, so a caller emits a whole script and checks
// once. Script wraps that pattern. Byte slices given to Bytes are copied into
// the writer; hashes are pushed in serialized byte order.
package emit
