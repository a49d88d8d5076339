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
	return firstOf(a.Methods, func(m *Method) bool {
		return m.Name == name && (paramCount == -1 || paramCount == len(m.Parameters))
	})
}

// GetMethodByOffset returns the first method starting at offset, or nil.
func (a *ABI) GetMethodByOffset(offset int) *Method {
	return firstOf(a.Methods, func(m *Method) bool { return m.Offset == offset })
}

// GetEvent returns the first event with the given name, or nil.
func (a *ABI) GetEvent(name string) *Event {
	return firstOf(a.Events, func(e *Event) bool { return e.Name == name })
}

// signature is how a method or an event is named in validation errors.
func signature(name string, params []Parameter) string {
	return fmt.Sprintf("%q/%d", name, len(params))
}

// IsValid checks the ABI (the error texts are neo-go's; they reach clients
// as deploy exceptions): at least one method, valid methods and events, no
// two methods with the same name and parameter count, no two events with the
// same name.
func (a *ABI) IsValid() error {
	if len(a.Methods) == 0 {
		return errors.New("no methods")
	}
	for _, m := range a.Methods {
		if err := m.IsValid(); err != nil {
			return fmt.Errorf("method %s: %w", signature(m.Name, m.Parameters), err)
		}
	}
	sameSignature := func(x, y Method) int {
		return cmp.Or(strings.Compare(x.Name, y.Name), cmp.Compare(len(x.Parameters), len(y.Parameters)))
	}
	if hasDups(a.Methods, sameSignature) {
		return errors.New("duplicate method specifications")
	}
	for _, e := range a.Events {
		if err := e.IsValid(); err != nil {
			return fmt.Errorf("event %s: %w", signature(e.Name, e.Parameters), err)
		}
	}
	if hasDups(a.Events, func(x, y Event) int { return strings.Compare(x.Name, y.Name) }) {
		return errors.New("duplicate event names")
	}
	return nil
}

// ToStackItem returns Struct [methods, events].
func (a *ABI) ToStackItem() stackitem.Item {
	return structOf(encodeList(a.Methods, (*Method).ToStackItem), encodeList(a.Events, (*Event).ToStackItem))
}

// FromStackItem decodes the form made by ToStackItem.
func (a *ABI) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 2, "ABI")
	if err == nil {
		a.Methods, err = decodeList(fields[0], "Methods", (*Method).FromStackItem)
	}
	if err == nil {
		a.Events, err = decodeList(fields[1], "Events", (*Event).FromStackItem)
	}
	return err
}

// IsValid checks the method: a name, a non-negative offset, a known return
// type and valid parameters.
func (m *Method) IsValid() error {
	switch {
	case m.Name == "":
		return errNoName
	case m.Offset < 0:
		return errors.New("negative offset")
	}
	if _, err := smartcontract.ConvertToParamType(int64(m.ReturnType)); err != nil {
		return err
	}
	return Parameters(m.Parameters).AreValid()
}

// ToStackItem returns Struct [name, parameters, returntype, offset, safe].
func (m *Method) ToStackItem() stackitem.Item {
	return structOf(
		stringItem(m.Name),
		encodeList(m.Parameters, (*Parameter).ToStackItem),
		stackitem.NewInt(int64(m.ReturnType)),
		stackitem.NewInt(int64(m.Offset)),
		stackitem.Bool(m.Safe),
	)
}

// FromStackItem decodes the form made by ToStackItem.
func (m *Method) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 5, "Method")
	if err == nil {
		m.Name, err = itemString(fields[0])
	}
	if err == nil {
		m.Parameters, err = decodeList(fields[1], "Params", (*Parameter).FromStackItem)
	}
	if err == nil {
		m.ReturnType, err = itemParamType(fields[2])
	}
	var off int64
	if err == nil {
		off, err = itemInt64(fields[3])
		m.Offset = int(off)
	}
	if err == nil {
		m.Safe, err = itemBool(fields[4])
	}
	return err
}

// IsValid checks the event: a name and valid parameters.
func (e *Event) IsValid() error {
	if e.Name == "" {
		return errNoName
	}
	return Parameters(e.Parameters).AreValid()
}

// ToStackItem returns Struct [name, parameters].
func (e *Event) ToStackItem() stackitem.Item {
	return structOf(stringItem(e.Name), encodeList(e.Parameters, (*Parameter).ToStackItem))
}

// FromStackItem decodes the form made by ToStackItem.
func (e *Event) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 2, "Event")
	if err == nil {
		e.Name, err = itemString(fields[0])
	}
	if err == nil {
		e.Parameters, err = decodeList(fields[1], "Params", (*Parameter).FromStackItem)
	}
	return err
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
	switch {
	case p.Name == "":
		return errNoName
	case p.Type == smartcontract.VoidType:
		return errors.New("void parameter")
	}
	_, err := smartcontract.ConvertToParamType(int64(p.Type))
	return err
}

// ToStackItem returns Struct [name, type].
func (p *Parameter) ToStackItem() stackitem.Item {
	return structOf(stringItem(p.Name), stackitem.NewInt(int64(p.Type)))
}

// FromStackItem decodes the form made by ToStackItem.
func (p *Parameter) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 2, "Parameter")
	if err == nil {
		p.Name, err = itemString(fields[0])
	}
	if err == nil {
		p.Type, err = itemParamType(fields[1])
	}
	return err
}

// AreValid checks every parameter and that names are unique.
func (p Parameters) AreValid() error {
	for i, par := range p {
		if err := par.IsValid(); err != nil {
			return fmt.Errorf("parameter #%d/%q: %w", i, par.Name, err)
		}
	}
	if hasDups(p, func(a, b Parameter) int { return strings.Compare(a.Name, b.Name) }) {
		return errors.New("duplicate parameter name")
	}
	return nil
}
