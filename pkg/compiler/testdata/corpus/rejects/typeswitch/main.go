// want: main.go:5:2: type switch is not supported
package typeswitch

func Main(v any) int {
	switch v.(type) {
	case int:
		return 1
	}
	return 0
}
