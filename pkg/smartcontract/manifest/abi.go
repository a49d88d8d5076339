package manifest

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Method names with a special meaning (C# ContractBasicMethod).
const (
	// MethodInit is run before every method of a contract that has it.
	MethodInit = "_initialize"
	// MethodDeploy is called by ContractManagement after deploy and update.
	MethodDeploy = "_deploy"
	// MethodVerify is called to verify a witness of the contract.
	MethodVerify = "verify"
	// MethodOnNEP17Payment is called on NEP-17 transfers to a contract.
	MethodOnNEP17Payment = "onNEP17Payment"
	// MethodOnNEP11Payment is called on NEP-11 transfers to a contract.
	MethodOnNEP11Payment = "onNEP11Payment"
)

// ABI holds the methods and events of a contract.
type ABI struct {
	Methods []Method `json:"methods"`
	Events  []Event  `json:"events"`
}

// Method is a method descriptor (C# ContractMethodDescriptor).
type Method struct {
	Name       string                  `json:"name"`
	Offset     int                     `json:"offset"`
	Parameters []Parameter             `json:"parameters"`
	ReturnType smartcontract.ParamType `json:"returntype"`
	Safe       bool                    `json:"safe"`
}

// Event is an event descriptor (C# ContractEventDescriptor).
type Event struct {
	Name       string      `json:"name"`
	Parameters []Parameter `json:"parameters"`
}

// Parameter is a parameter definition (C# ContractParameterDefinition).
type Parameter struct {
	Name string                  `json:"name"`
	Type smartcontract.ParamType `json:"type"`
}

// Parameters is a list of parameter definitions.
type Parameters []Parameter

// NewParameter returns a parameter definition.
func NewParameter(name string, typ smartcontract.ParamType) Parameter {
	return Parameter{Name: name, Type: typ}
}

// GetMethod returns the first method with the given name and parameter count
// (any count for -1), or nil (C# ContractAbi.GetMethod).
func (a *ABI) GetMethod(name string, paramCount int) *Method {
	for i := range a.Methods {
		if a.Methods[i].Name == name && (paramCount == -1 || len(a.Methods[i].Parameters) == paramCount) {
			return &a.Methods[i]
		}
	}
	return nil
}

// GetMethodByOffset returns the first method starting at offset, or nil.
func (a *ABI) GetMethodByOffset(offset int) *Method {
	for i := range a.Methods {
		if a.Methods[i].Offset == offset {
			return &a.Methods[i]
		}
	}
	return nil
}

// GetEvent returns the first event with the given name, or nil.
func (a *ABI) GetEvent(name string) *Event {
	for i := range a.Events {
		if a.Events[i].Name == name {
			return &a.Events[i]
		}
	}
	return nil
}

// IsValid checks the ABI: at least one method, valid methods and events, no
// two methods with the same name and parameter count, no two events with the
// same name.
func (a *ABI) IsValid() error {
	if len(a.Methods) == 0 {
		return errors.New("no methods")
	}
	for i := range a.Methods {
		if err := a.Methods[i].IsValid(); err != nil {
			return fmt.Errorf("method %q/%d: %w", a.Methods[i].Name, len(a.Methods[i].Parameters), err)
		}
	}
	if hasDups(a.Methods, func(x, y Method) int {
		return cmp.Or(strings.Compare(x.Name, y.Name), cmp.Compare(len(x.Parameters), len(y.Parameters)))
	}) {
		return errors.New("duplicate method specifications")
	}
	for i := range a.Events {
		if err := a.Events[i].IsValid(); err != nil {
			return fmt.Errorf("event %q/%d: %w", a.Events[i].Name, len(a.Events[i].Parameters), err)
		}
	}
	if hasDups(a.Events, func(x, y Event) int { return strings.Compare(x.Name, y.Name) }) {
		return errors.New("duplicate event names")
	}
	return nil
}

// ToStackItem returns Struct [methods, events].
func (a *ABI) ToStackItem() stackitem.Item {
	methods := make([]stackitem.Item, len(a.Methods))
	for i := range a.Methods {
		methods[i] = a.Methods[i].ToStackItem()
	}
	events := make([]stackitem.Item, len(a.Events))
	for i := range a.Events {
		events[i] = a.Events[i].ToStackItem()
	}
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewArray(methods), stackitem.NewArray(events)})
}

// FromStackItem decodes the form made by ToStackItem.
func (a *ABI) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 2, "ABI")
	if err != nil {
		return err
	}
	methods, err := arrayItems(str[0], "Methods")
	if err != nil {
		return err
	}
	a.Methods = make([]Method, len(methods))
	for i := range methods {
		if err := a.Methods[i].FromStackItem(methods[i]); err != nil {
			return err
		}
	}
	events, err := arrayItems(str[1], "Events")
	if err != nil {
		return err
	}
	a.Events = make([]Event, len(events))
	for i := range events {
		if err := a.Events[i].FromStackItem(events[i]); err != nil {
			return err
		}
	}
	return nil
}

// IsValid checks the method: a name, a non-negative offset, a known return
// type and valid parameters.
func (m *Method) IsValid() error {
	if m.Name == "" {
		return errors.New("empty or absent name")
	}
	if m.Offset < 0 {
		return errors.New("negative offset")
	}
	if _, err := smartcontract.ConvertToParamType(int64(m.ReturnType)); err != nil {
		return err
	}
	return Parameters(m.Parameters).AreValid()
}

// ToStackItem returns Struct [name, parameters, returntype, offset, safe].
func (m *Method) ToStackItem() stackitem.Item {
	params := make([]stackitem.Item, len(m.Parameters))
	for i := range m.Parameters {
		params[i] = m.Parameters[i].ToStackItem()
	}
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewByteString([]byte(m.Name)),
		stackitem.NewArray(params),
		stackitem.NewInt(int64(m.ReturnType)),
		stackitem.NewInt(int64(m.Offset)),
		stackitem.Bool(m.Safe),
	})
}

// FromStackItem decodes the form made by ToStackItem.
func (m *Method) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 5, "Method")
	if err != nil {
		return err
	}
	if m.Name, err = itemString(str[0]); err != nil {
		return err
	}
	params, err := arrayItems(str[1], "Params")
	if err != nil {
		return err
	}
	m.Parameters = make([]Parameter, len(params))
	for i := range params {
		if err := m.Parameters[i].FromStackItem(params[i]); err != nil {
			return err
		}
	}
	rt, err := itemInt64(str[2])
	if err != nil {
		return err
	}
	if m.ReturnType, err = smartcontract.ConvertToParamType(rt); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	off, err := itemInt64(str[3])
	if err != nil {
		return err
	}
	m.Offset = int(off)
	if m.Safe, err = str[4].TryBool(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	return nil
}

// IsValid checks the event: a name and valid parameters.
func (e *Event) IsValid() error {
	if e.Name == "" {
		return errors.New("empty or absent name")
	}
	return Parameters(e.Parameters).AreValid()
}

// ToStackItem returns Struct [name, parameters].
func (e *Event) ToStackItem() stackitem.Item {
	params := make([]stackitem.Item, len(e.Parameters))
	for i := range e.Parameters {
		params[i] = e.Parameters[i].ToStackItem()
	}
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString([]byte(e.Name)), stackitem.NewArray(params)})
}

// FromStackItem decodes the form made by ToStackItem.
func (e *Event) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 2, "Event")
	if err != nil {
		return err
	}
	if e.Name, err = itemString(str[0]); err != nil {
		return err
	}
	params, err := arrayItems(str[1], "Params")
	if err != nil {
		return err
	}
	e.Parameters = make([]Parameter, len(params))
	for i := range params {
		if err := e.Parameters[i].FromStackItem(params[i]); err != nil {
			return err
		}
	}
	return nil
}

// CheckCompliance checks notification arguments against the event's
// parameters (count and types, see TypeMatches).
func (e *Event) CheckCompliance(items []stackitem.Item) error {
	if len(items) != len(e.Parameters) {
		return fmt.Errorf("mismatch between the number of parameters and items: %d vs %d", len(e.Parameters), len(items))
	}
	for i := range items {
		if !TypeMatches(e.Parameters[i].Type, items[i]) {
			return fmt.Errorf("parameter %d type mismatch: %s (manifest) vs %s (notification)", i, e.Parameters[i].Type, items[i].Type())
		}
	}
	return nil
}

// IsValid checks the parameter: a name, not Void, a known type.
func (p *Parameter) IsValid() error {
	if p.Name == "" {
		return errors.New("empty or absent name")
	}
	if p.Type == smartcontract.VoidType {
		return errors.New("void parameter")
	}
	_, err := smartcontract.ConvertToParamType(int64(p.Type))
	return err
}

// ToStackItem returns Struct [name, type].
func (p *Parameter) ToStackItem() stackitem.Item {
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString([]byte(p.Name)), stackitem.NewInt(int64(p.Type))})
}

// FromStackItem decodes the form made by ToStackItem.
func (p *Parameter) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 2, "Parameter")
	if err != nil {
		return err
	}
	if p.Name, err = itemString(str[0]); err != nil {
		return err
	}
	t, err := itemInt64(str[1])
	if err != nil {
		return err
	}
	if p.Type, err = smartcontract.ConvertToParamType(t); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	return nil
}

// AreValid checks every parameter and that names are unique.
func (p Parameters) AreValid() error {
	for i := range p {
		if err := p[i].IsValid(); err != nil {
			return fmt.Errorf("parameter #%d/%q: %w", i, p[i].Name, err)
		}
	}
	if hasDups(p, func(a, b Parameter) int { return strings.Compare(a.Name, b.Name) }) {
		return errors.New("duplicate parameter name")
	}
	return nil
}

// itemInt64 converts an integer item that fits int64.
func itemInt64(item stackitem.Item) (int64, error) {
	b, err := item.TryInteger()
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if !b.IsInt64() {
		return 0, fmt.Errorf("%w: integer out of range", ErrInvalidItem)
	}
	return b.Int64(), nil
}
