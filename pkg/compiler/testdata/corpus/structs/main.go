package structs

type Point struct {
	X, Y int
	Name string
}

type Base struct {
	ID int
}

type Item struct {
	Base
	P     Point
	Tags  []string
	Owner *Point
}

func (p Point) Sum() int {
	return p.X + p.Y
}

func (p *Point) Move(dx int) {
	p.X += dx
}

func New(x, y int) Point {
	return Point{X: x, Y: y}
}

func Use(x int) int {
	p := New(x, 2)
	p.Move(3)
	q := Point{1, 2, "q"}
	q.Name = "z"
	r := &Point{X: 5}
	r.Y = 4
	it := Item{Base: Base{ID: 7}, P: q}
	it.P.X = 9
	it.ID = 3
	s := *r
	return p.Sum() + q.X + r.Y + it.P.X + it.ID + s.X + len(it.Tags)
}

func Zero() Item {
	var it Item
	return it
}

func Pass(p Point) int {
	return take(p)
}

func take(p Point) int {
	p.X = 100
	return p.X
}
