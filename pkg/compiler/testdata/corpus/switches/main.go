package switches

func Tag(x int) int {
	switch x {
	case 1:
		return 10
	case 2, 3:
		x = 20
	default:
		x = 0
	case 4:
		x = 40
		fallthrough
	case 5:
		x++
	}
	return x
}

func NoTag(x int) string {
	switch {
	case x > 10:
		return "big"
	case x > 5:
		if x == 7 {
			break
		}
		return "mid"
	}
	return "small"
}

func Str(s string) int {
	switch s {
	case "a":
		return 1
	case "b":
		return 2
	}
	for i := 0; i < 3; i++ {
		switch i {
		case 1:
			continue
		case 2:
			break
		}
	}
	return 0
}
