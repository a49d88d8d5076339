package callflag

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestValues(t *testing.T) {
	// C# CallFlags values.
	want := map[CallFlag]byte{None: 0, ReadStates: 1, WriteStates: 2, AllowCall: 4, AllowNotify: 8, States: 3, ReadOnly: 5, All: 15}
	for f, b := range want {
		if byte(f) != b {
			t.Errorf("%s = %d, want %d", f, f, b)
		}
	}
}

func TestString(t *testing.T) {
	cases := map[CallFlag]string{
		None:                                  "None",
		All:                                   "All",
		ReadStates:                            "ReadStates",
		States:                                "States",
		ReadOnly:                              "ReadOnly",
		States | AllowCall:                    "ReadOnly, WriteStates",
		ReadOnly | AllowNotify:                "ReadOnly, AllowNotify",
		States | AllowNotify:                  "States, AllowNotify",
		WriteStates | AllowCall | AllowNotify: "WriteStates, AllowCall, AllowNotify",
		16:                                    "16",
		255:                                   "255",
	}
	for f, s := range cases {
		if got := f.String(); got != s {
			t.Errorf("String(%d) = %q, want %q", f, got, s)
		}
	}
}

func TestDotNetString(t *testing.T) {
	cases := map[CallFlag]string{
		None:                     "None",
		All:                      "All",
		States | AllowCall:       "WriteStates, ReadOnly",
		ReadOnly | AllowNotify:   "ReadOnly, AllowNotify",
		States | AllowNotify:     "States, AllowNotify",
		WriteStates | AllowCall:  "WriteStates, AllowCall",
		ReadStates | AllowNotify: "ReadStates, AllowNotify",
		0x30:                     "48",
	}
	for f, s := range cases {
		if got := f.DotNetString(); got != s {
			t.Errorf("DotNetString(%d) = %q, want %q", f, got, s)
		}
	}
	// The two forms differ for exactly one valid value.
	var diff []CallFlag
	for f := None; f <= All; f++ {
		if f.String() != f.DotNetString() {
			diff = append(diff, f)
		}
	}
	if len(diff) != 1 || diff[0] != States|AllowCall {
		t.Errorf("forms differ for %v, want only [7]", diff)
	}
}

func TestFromString(t *testing.T) {
	cases := map[string]struct {
		flag CallFlag
		err  bool
	}{
		"None":                   {None, false},
		"All":                    {All, false},
		"ReadStates":             {ReadStates, false},
		"States":                 {States, false},
		"ReadOnly":               {ReadOnly, false},
		"ReadOnly, WriteStates":  {States | AllowCall, false},
		"WriteStates, ReadOnly":  {States | AllowCall, false},
		"States, AllowCall":      {States | AllowCall, false},
		"AllowCall, States":      {States | AllowCall, false},
		"States, ReadOnly":       {States | AllowCall, false},
		" AllowCall,AllowNotify": {AllowNotify | AllowCall, false},
		"BlahBlah":               {None, true},
		"":                       {None, true},
		"States, All":            {None, true},
		"ReadStates,,AllowCall":  {None, true},
		"ReadStates;AllowCall":   {None, true},
		"readstates":             {None, true},
		"  All":                  {None, true},
		"None, All":              {None, true},
		"None, ReadStates":       {None, true},
	}
	for s, c := range cases {
		f, err := FromString(s)
		if (err != nil) != c.err || f != c.flag {
			t.Errorf("FromString(%q) = %v, %v; want %v, err=%v", s, f, err, c.flag, c.err)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("FromString(%q) error %v is not ErrInvalid", s, err)
		}
	}
	// Every valid value round-trips through both forms.
	for f := None; f <= All; f++ {
		for _, s := range []string{f.String(), f.DotNetString()} {
			g, err := FromString(s)
			if err != nil || g != f {
				t.Errorf("FromString(%q) = %v, %v; want %v", s, g, err, f)
			}
		}
	}
}

func TestIsValid(t *testing.T) {
	for f := 0; f < 256; f++ {
		if got, want := CallFlag(f).IsValid(), f <= 15; got != want || IsValid(CallFlag(f)) != want {
			t.Errorf("IsValid(%d) = %v", f, got)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, f := range []CallFlag{None, States, States | AllowNotify, All} {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `"`+f.String()+`"` {
			t.Errorf("json %s", b)
		}
		var g CallFlag
		if err := json.Unmarshal(b, &g); err != nil || g != f {
			t.Errorf("round trip %s: %v %v", b, g, err)
		}
	}
	var g CallFlag = States
	if err := json.Unmarshal([]byte("42"), &g); err == nil {
		t.Error("number accepted")
	}
	if err := json.Unmarshal([]byte(`"State"`), &g); err == nil || g != States {
		t.Errorf("bad name accepted or value changed: %v %v", g, err)
	}
}
