package transaction

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// Witness rule limits (C# WitnessCondition.MaxSubitems,
// WitnessCondition.MaxNestingDepth).
const (
	MaxConditionSubitems = 16
	MaxConditionNesting  = 3
)

// ErrInvalidRule is wrapped by witness rule and condition decoding errors.
var ErrInvalidRule = errors.New("invalid witness rule")

// WitnessAction is the effect of a matching rule.
type WitnessAction byte

// Rule actions.
const (
	WitnessDeny  WitnessAction = 0
	WitnessAllow WitnessAction = 1
)

// String returns "Deny" or "Allow".
func (a WitnessAction) String() string {
	switch a {
	case WitnessDeny:
		return "Deny"
	case WitnessAllow:
		return "Allow"
	}
	return fmt.Sprintf("WitnessAction(%d)", byte(a))
}

// WitnessConditionType identifies a condition.
type WitnessConditionType byte

// Condition types.
const (
	ConditionBoolean          WitnessConditionType = 0x00
	ConditionNot              WitnessConditionType = 0x01
	ConditionAnd              WitnessConditionType = 0x02
	ConditionOr               WitnessConditionType = 0x03
	ConditionScriptHash       WitnessConditionType = 0x18
	ConditionGroup            WitnessConditionType = 0x19
	ConditionCalledByEntry    WitnessConditionType = 0x20
	ConditionCalledByContract WitnessConditionType = 0x28
	ConditionCalledByGroup    WitnessConditionType = 0x29
)

var conditionNames = map[WitnessConditionType]string{
	ConditionBoolean:          "Boolean",
	ConditionNot:              "Not",
	ConditionAnd:              "And",
	ConditionOr:               "Or",
	ConditionScriptHash:       "ScriptHash",
	ConditionGroup:            "Group",
	ConditionCalledByEntry:    "CalledByEntry",
	ConditionCalledByContract: "CalledByContract",
	ConditionCalledByGroup:    "CalledByGroup",
}

// String returns the C# name of the type.
func (t WitnessConditionType) String() string {
	if n, ok := conditionNames[t]; ok {
		return n
	}
	return fmt.Sprintf("WitnessConditionType(%d)", byte(t))
}

// WitnessCondition is one node of a rule's condition tree. Which fields
// are used depends on Type: Bool (Boolean), Sub (one element for Not, 1..16
// for And and Or), Hash (ScriptHash, CalledByContract), Group (Group,
// CalledByGroup); CalledByEntry has none.
type WitnessCondition struct {
	Type  WitnessConditionType
	Bool  bool
	Hash  hash.Uint160
	Group *keys.PublicKey
	Sub   []WitnessCondition
}

// WitnessRule is an action applied when its condition matches.
type WitnessRule struct {
	Action    WitnessAction
	Condition WitnessCondition
}

// MatchContext is what condition matching needs from the execution engine.
type MatchContext interface {
	GetCallingScriptHash() hash.Uint160
	GetCurrentScriptHash() hash.Uint160
	CallingScriptHasGroup(*keys.PublicKey) (bool, error)
	CurrentScriptHasGroup(*keys.PublicKey) (bool, error)
	IsCalledByEntry() bool
}

// Match evaluates the condition (C# WitnessCondition.Match).
func (c *WitnessCondition) Match(ctx MatchContext) (bool, error) {
	switch c.Type {
	case ConditionBoolean:
		return c.Bool, nil
	case ConditionNot:
		if len(c.Sub) != 1 {
			return false, ErrInvalidRule
		}
		r, err := c.Sub[0].Match(ctx)
		return err == nil && !r, err
	case ConditionAnd:
		for i := range c.Sub {
			r, err := c.Sub[i].Match(ctx)
			if err != nil || !r {
				return false, err
			}
		}
		return true, nil
	case ConditionOr:
		for i := range c.Sub {
			r, err := c.Sub[i].Match(ctx)
			if err != nil {
				return false, err
			}
			if r {
				return true, nil
			}
		}
		return false, nil
	case ConditionScriptHash:
		return ctx.GetCurrentScriptHash() == c.Hash, nil
	case ConditionGroup:
		return ctx.CurrentScriptHasGroup(c.Group)
	case ConditionCalledByEntry:
		return ctx.IsCalledByEntry(), nil
	case ConditionCalledByContract:
		return ctx.GetCallingScriptHash() == c.Hash, nil
	case ConditionCalledByGroup:
		return ctx.CallingScriptHasGroup(c.Group)
	}
	return false, ErrInvalidRule
}

// Size returns the encoded size.
func (c *WitnessCondition) Size() int {
	switch c.Type {
	case ConditionBoolean:
		return 2
	case ConditionNot:
		if len(c.Sub) == 1 {
			return 1 + c.Sub[0].Size()
		}
		return 1
	case ConditionAnd, ConditionOr:
		n := 1 + nio.VarUintSize(uint64(len(c.Sub)))
		for i := range c.Sub {
			n += c.Sub[i].Size()
		}
		return n
	case ConditionScriptHash, ConditionCalledByContract:
		return 1 + hash.Uint160Size
	case ConditionGroup, ConditionCalledByGroup:
		return 1 + keys.CompressedSize
	}
	return 1
}

// EncodeBinary writes the condition. A condition that cannot be encoded
// (wrong number of subitems, missing group) sets w.Err.
func (c *WitnessCondition) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(byte(c.Type))
	switch c.Type {
	case ConditionBoolean:
		w.WriteBool(c.Bool)
	case ConditionNot:
		if len(c.Sub) != 1 {
			w.SetError(fmt.Errorf("%w: Not with %d subitems", ErrInvalidRule, len(c.Sub)))
			return
		}
		c.Sub[0].EncodeBinary(w)
	case ConditionAnd, ConditionOr:
		w.WriteVarUint(uint64(len(c.Sub)))
		for i := range c.Sub {
			c.Sub[i].EncodeBinary(w)
		}
	case ConditionScriptHash, ConditionCalledByContract:
		w.WriteBytes(c.Hash[:])
	case ConditionGroup, ConditionCalledByGroup:
		if c.Group == nil {
			w.SetError(fmt.Errorf("%w: %s without group", ErrInvalidRule, c.Type))
			return
		}
		c.Group.EncodeBinary(w)
	case ConditionCalledByEntry:
	default:
		w.SetError(fmt.Errorf("%w: condition type 0x%02x", ErrInvalidRule, byte(c.Type)))
	}
}

// DecodeBinary reads a condition with the full nesting allowance.
func (c *WitnessCondition) DecodeBinary(r *nio.BinReader) {
	d := decoder{r: r}
	d.condition(c, MaxConditionNesting)
}

// condition follows C# WitnessCondition.DeserializeFrom: the depth
// allowance is checked before the type byte is read and every subitem
// gets one less.
func (d *decoder) condition(c *WitnessCondition, depth int) {
	r := d.r
	if depth <= 0 {
		r.SetError(fmt.Errorf("%w: nesting deeper than %d", ErrInvalidRule, MaxConditionNesting))
		return
	}
	c.Type = WitnessConditionType(r.ReadU8())
	if r.Err != nil {
		return
	}
	switch c.Type {
	case ConditionBoolean:
		c.Bool = d.bool()
	case ConditionNot:
		c.Sub = make([]WitnessCondition, 1)
		d.condition(&c.Sub[0], depth-1)
	case ConditionAnd, ConditionOr:
		n := d.count(MaxConditionSubitems, 1)
		if r.Err != nil {
			return
		}
		if n == 0 {
			r.SetError(fmt.Errorf("%w: empty %s", ErrInvalidRule, c.Type))
			return
		}
		c.Sub = make([]WitnessCondition, n)
		for i := range c.Sub {
			d.condition(&c.Sub[i], depth-1)
			if r.Err != nil {
				return
			}
		}
	case ConditionScriptHash, ConditionCalledByContract:
		r.ReadBytes(c.Hash[:])
	case ConditionGroup, ConditionCalledByGroup:
		c.Group = d.publicKey()
	case ConditionCalledByEntry:
	default:
		r.SetError(fmt.Errorf("%w: condition type 0x%02x", ErrInvalidRule, byte(c.Type)))
	}
}

// Size returns the encoded size of the rule.
func (w *WitnessRule) Size() int { return 1 + w.Condition.Size() }

// EncodeBinary writes the rule.
func (w *WitnessRule) EncodeBinary(bw *nio.BinWriter) {
	bw.WriteU8(byte(w.Action))
	w.Condition.EncodeBinary(bw)
}

// DecodeBinary reads a rule.
func (w *WitnessRule) DecodeBinary(r *nio.BinReader) {
	d := decoder{r: r}
	d.rule(w)
}

func (d *decoder) rule(w *WitnessRule) {
	w.Action = WitnessAction(d.r.ReadU8())
	if d.r.Err != nil {
		return
	}
	if w.Action != WitnessDeny && w.Action != WitnessAllow {
		d.r.SetError(fmt.Errorf("%w: action 0x%02x", ErrInvalidRule, byte(w.Action)))
		return
	}
	d.condition(&w.Condition, MaxConditionNesting)
}

// conditionJSON mirrors neo-go's field order (type last).
type conditionJSON struct {
	Expression  json.RawMessage   `json:"expression,omitzero"`
	Expressions []json.RawMessage `json:"expressions,omitzero"`
	Group       *keys.PublicKey   `json:"group,omitzero"`
	Hash        *hash.Uint160     `json:"hash,omitzero"`
	Type        string            `json:"type"`
}

// MarshalJSON writes the neo-go JSON form of the condition.
func (c *WitnessCondition) MarshalJSON() ([]byte, error) {
	aux := conditionJSON{Type: c.Type.String()}
	switch c.Type {
	case ConditionBoolean:
		if c.Bool {
			aux.Expression = json.RawMessage("true")
		} else {
			aux.Expression = json.RawMessage("false")
		}
	case ConditionNot:
		if len(c.Sub) != 1 {
			return nil, ErrInvalidRule
		}
		b, err := c.Sub[0].MarshalJSON()
		if err != nil {
			return nil, err
		}
		aux.Expression = b
	case ConditionAnd, ConditionOr:
		aux.Expressions = make([]json.RawMessage, len(c.Sub))
		for i := range c.Sub {
			b, err := c.Sub[i].MarshalJSON()
			if err != nil {
				return nil, err
			}
			aux.Expressions[i] = b
		}
	case ConditionScriptHash, ConditionCalledByContract:
		h := c.Hash
		aux.Hash = &h
	case ConditionGroup, ConditionCalledByGroup:
		if c.Group == nil {
			return nil, ErrInvalidRule
		}
		aux.Group = c.Group
	case ConditionCalledByEntry:
	default:
		return nil, ErrInvalidRule
	}
	return json.Marshal(aux)
}

// UnmarshalJSON parses the JSON form with the same limits as decoding.
func (c *WitnessCondition) UnmarshalJSON(data []byte) error {
	return c.unmarshalJSON(data, MaxConditionNesting)
}

func (c *WitnessCondition) unmarshalJSON(data []byte, depth int) error {
	if depth <= 0 {
		return fmt.Errorf("%w: nesting deeper than %d", ErrInvalidRule, MaxConditionNesting)
	}
	var aux conditionJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*c = WitnessCondition{}
	found := false
	for t, n := range conditionNames {
		if n == aux.Type {
			c.Type, found = t, true
		}
	}
	if !found {
		return fmt.Errorf("%w: condition type %q", ErrInvalidRule, aux.Type)
	}
	switch c.Type {
	case ConditionBoolean:
		return json.Unmarshal(aux.Expression, &c.Bool)
	case ConditionNot:
		c.Sub = make([]WitnessCondition, 1)
		return c.Sub[0].unmarshalJSON(aux.Expression, depth-1)
	case ConditionAnd, ConditionOr:
		if len(aux.Expressions) == 0 || len(aux.Expressions) > MaxConditionSubitems {
			return fmt.Errorf("%w: %d subitems", ErrInvalidRule, len(aux.Expressions))
		}
		c.Sub = make([]WitnessCondition, len(aux.Expressions))
		for i := range c.Sub {
			if err := c.Sub[i].unmarshalJSON(aux.Expressions[i], depth-1); err != nil {
				return err
			}
		}
	case ConditionScriptHash, ConditionCalledByContract:
		if aux.Hash == nil {
			return fmt.Errorf("%w: no hash", ErrInvalidRule)
		}
		c.Hash = *aux.Hash
	case ConditionGroup, ConditionCalledByGroup:
		if aux.Group == nil {
			return fmt.Errorf("%w: no group", ErrInvalidRule)
		}
		c.Group = aux.Group
	}
	return nil
}

type ruleJSON struct {
	Action    string          `json:"action"`
	Condition json.RawMessage `json:"condition"`
}

// MarshalJSON writes {"action":..., "condition":...}.
func (w *WitnessRule) MarshalJSON() ([]byte, error) {
	c, err := w.Condition.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(ruleJSON{Action: w.Action.String(), Condition: c})
}

// UnmarshalJSON parses the JSON form.
func (w *WitnessRule) UnmarshalJSON(data []byte) error {
	var aux ruleJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	switch aux.Action {
	case "Deny":
		w.Action = WitnessDeny
	case "Allow":
		w.Action = WitnessAllow
	default:
		return fmt.Errorf("%w: action %q", ErrInvalidRule, aux.Action)
	}
	return w.Condition.UnmarshalJSON(aux.Condition)
}

// Copy returns a deep copy (public keys are shared, being immutable).
func (c *WitnessCondition) Copy() WitnessCondition {
	cp := *c
	if c.Sub != nil {
		cp.Sub = make([]WitnessCondition, len(c.Sub))
		for i := range c.Sub {
			cp.Sub[i] = c.Sub[i].Copy()
		}
	}
	return cp
}
