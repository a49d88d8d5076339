package pointerstruct

type Node struct {
	Val  int
	Next *Node
}

func bump(n *Node) {
	n.Val++
}

func List() int {
	head := &Node{Val: 1}
	head.Next = &Node{Val: 2}
	bump(head)
	bump(head.Next)
	s := 0
	for n := head; n != nil; n = n.Next {
		s += n.Val
	}
	return s
}
