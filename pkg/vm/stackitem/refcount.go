package stackitem

// RefCounter is the VM reference counter (C# ReferenceCounter after neo-vm
// #564/#576/#581, the "light" counter adopted from neo-go). Its count is the
// number of stack and slot references plus, for every compound item that is
// referenced from a stack or slot, the references to its sub-items. A
// compound's sub-items are counted when it first becomes stack-referenced
// and uncounted when its last stack reference goes away.
//
// The zero value is ready to use.
type RefCounter struct {
	count int
}

// Count returns the current count.
func (r *RefCounter) Count() int { return r.count }

// Reset sets the count to zero (compound items keep their own counts).
func (r *RefCounter) Reset() { r.count = 0 }

// Inc adds n to the count without touching any item (C# Inc).
func (r *RefCounter) Inc(n int) { r.count += n }

// Add records one new stack reference to item (C# AddStackReference).
func (r *RefCounter) Add(item Item) { r.AddN(item, 1) }

// AddN records n new stack references to item.
func (r *RefCounter) AddN(item Item, n int) {
	r.count += n
	switch c := item.(type) {
	case *Array:
		c.refs += n
		if c.refs == n {
			for _, sub := range c.items {
				r.AddN(sub, 1)
			}
		}
	case *Map:
		c.refs += n
		if c.refs == n {
			for i := range c.elems {
				r.AddN(c.elems[i].Key, 1)
			}
			for i := range c.elems {
				r.AddN(c.elems[i].Value, 1)
			}
		}
	}
}

// Remove drops one stack reference to item (C# RemoveStackReference). A
// compound item that is not stack-referenced is left alone.
func (r *RefCounter) Remove(item Item) {
	switch c := item.(type) {
	case *Array:
		if c.refs == 0 {
			return
		}
		r.count--
		c.refs--
		if c.refs == 0 {
			for _, sub := range c.items {
				r.Remove(sub)
			}
		}
	case *Map:
		if c.refs == 0 {
			return
		}
		r.count--
		c.refs--
		if c.refs == 0 {
			for i := range c.elems {
				r.Remove(c.elems[i].Key)
			}
			for i := range c.elems {
				r.Remove(c.elems[i].Value)
			}
		}
	default:
		r.count--
	}
}

// IsReferenced reports whether a compound item is stack-referenced; it is
// false for other items.
func IsReferenced(item Item) bool {
	switch c := item.(type) {
	case *Array:
		return c.refs != 0
	case *Map:
		return c.refs != 0
	}
	return false
}

// AdjustRefs changes the stack-reference count of a compound item by d
// without touching the counter or the sub-items. The VM uses it where C#
// moves references between the stack and a container (PACK, UNPACK, VALUES).
func AdjustRefs(item Item, d int) {
	switch c := item.(type) {
	case *Array:
		c.refs += d
	case *Map:
		c.refs += d
	}
}
