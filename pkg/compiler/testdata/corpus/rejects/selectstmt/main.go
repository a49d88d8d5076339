// want: main.go:5:2: select statement is not supported
package selectstmt

func Main() {
	select {}
}
