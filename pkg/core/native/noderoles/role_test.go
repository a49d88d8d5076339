package noderoles

import "testing"

func TestRoles(t *testing.T) {
	want := map[Role]string{4: "StateValidator", 8: "Oracle", 16: "NeoFSAlphabetNode", 32: "P2PNotary"}
	n := 0
	for i := range 256 {
		r := Role(i)
		name, ok := want[r]
		if IsValid(r) != ok {
			t.Fatalf("IsValid(%d) = %v", i, !ok)
		}
		if ok {
			n++
			if r.String() != name {
				t.Fatalf("%d: %s", i, r)
			}
		}
	}
	if n != len(All) {
		t.Fatalf("%d valid roles, All has %d", n, len(All))
	}
	if Role(5).String() != "Role(5)" {
		t.Fatal(Role(5).String())
	}
}
