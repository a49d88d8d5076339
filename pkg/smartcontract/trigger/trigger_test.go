package trigger

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestValues(t *testing.T) {
	want := map[Type]byte{OnPersist: 0x01, PostPersist: 0x02, Verification: 0x20, Application: 0x40, System: 0x03, All: 0x63}
	for ty, b := range want {
		if byte(ty) != b {
			t.Errorf("%s = %#x, want %#x", ty, byte(ty), b)
		}
	}
}

func TestString(t *testing.T) {
	cases := map[Type]string{
		OnPersist: "OnPersist", PostPersist: "PostPersist", Verification: "Verification",
		Application: "Application", System: "System", All: "All", 0: "Type(0)", 0x10: "Type(16)",
	}
	for ty, s := range cases {
		if got := ty.String(); got != s {
			t.Errorf("String(%d) = %q, want %q", ty, got, s)
		}
	}
}

func TestFromString(t *testing.T) {
	cases := map[string]Type{
		"OnPersist": OnPersist, "postpersist": PostPersist, "APPLICATION": Application,
		"Verification": Verification, "All": All, "system": System,
	}
	for s, want := range cases {
		got, err := FromString(s)
		if err != nil || got != want {
			t.Errorf("FromString(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "Unknown", "Type(1)", " OnPersist"} {
		if _, err := FromString(s); !errors.Is(err, ErrUnknown) {
			t.Errorf("FromString(%q) error = %v", s, err)
		}
	}
}

func TestIsValid(t *testing.T) {
	n := 0
	for i := 0; i < 256; i++ {
		if Type(i).IsValid() {
			n++
		}
	}
	if n != 4 || !Application.IsValid() || System.IsValid() {
		t.Errorf("%d valid types", n)
	}
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(struct{ T Type }{Application})
	if err != nil || string(b) != `{"T":"Application"}` {
		t.Fatalf("%s %v", b, err)
	}
	var v struct{ T Type }
	if err := json.Unmarshal([]byte(`{"T":"onpersist"}`), &v); err != nil || v.T != OnPersist {
		t.Errorf("%v %v", v.T, err)
	}
	if err := json.Unmarshal([]byte(`{"T":1}`), &v); err == nil {
		t.Error("number accepted")
	}
	if err := json.Unmarshal([]byte(`{"T":"x"}`), &v); err == nil {
		t.Error("unknown accepted")
	}
}
