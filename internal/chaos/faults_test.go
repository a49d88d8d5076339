package chaos

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/network/message"
	"github.com/stretchr/testify/require"
)

// TestDeciderReproducible: one seed and stream give the same decisions,
// another stream or seed different ones; rates come out near the
// configured ones.
func TestDeciderReproducible(t *testing.T) {
	const n = 20000
	draw := func(seed uint64, stream string) []Decision {
		d := NewDecider(seed, stream)
		out := make([]Decision, n)
		for i := range out {
			out[i] = d.Decide(LossyFaults, message.CmdExtensible)
		}
		return out
	}
	a := draw(42, "0>1#0/up")
	require.Equal(t, a, draw(42, "0>1#0/up"))
	require.NotEqual(t, a, draw(42, "0>1#0/down"))
	require.NotEqual(t, a, draw(43, "0>1#0/up"))

	var drop, dup, reorder int
	for _, d := range a {
		switch {
		case d.Drop:
			drop++
		default:
			if d.Dup {
				dup++
			}
			if d.Reorder {
				reorder++
			}
			require.GreaterOrEqual(t, d.Delay, LossyFaults.Delay)
			require.Less(t, d.Delay, LossyFaults.Delay+LossyFaults.Jitter+LossyFaults.ReorderBy)
		}
	}
	near := func(got int, p float64, of int) {
		t.Helper()
		want := p * float64(of)
		require.InDelta(t, want, float64(got), 5*want/10+10, "got %d, want about %.0f", got, want)
	}
	near(drop, LossyFaults.Loss, n)
	near(dup, LossyFaults.Dup, n-drop)
	near(reorder, LossyFaults.Reorder, n-drop)
}

// TestDeciderHandshake: version and verack are only delayed, never lost,
// repeated or held back, whatever the rates; getaddr, addr, ping and
// pong are never repeated.
func TestDeciderHandshake(t *testing.T) {
	all := Faults{Loss: 1, Dup: 1, Reorder: 1, Delay: time.Millisecond, ReorderBy: time.Second}
	d := NewDecider(1, "s")
	for _, c := range []message.Command{message.CmdVersion, message.CmdVerack} {
		got := d.Decide(all, c)
		require.Equal(t, Decision{Delay: time.Millisecond}, got, "%s", c)
	}
	require.True(t, d.Decide(all, message.CmdPing).Drop)
	noLoss := Faults{Dup: 1}
	for _, c := range []message.Command{message.CmdGetAddr, message.CmdAddr, message.CmdPing, message.CmdPong} {
		require.False(t, d.Decide(noLoss, c).Dup, "%s", c)
	}
	require.True(t, d.Decide(noLoss, message.CmdInv).Dup)
}

// TestSchedule: a seed gives the same phases; phases are within the
// lengths, partitions cover every node once, and every kind shows up.
func TestSchedule(t *testing.T) {
	seen := make(map[FaultKind]int)
	for i := range 200 {
		p := Schedule(7, 4, i)
		require.Equal(t, p, Schedule(7, 4, i))
		require.Equal(t, i, p.Index)
		require.GreaterOrEqual(t, p.Length, MinFault)
		require.LessOrEqual(t, p.Length, MaxFault)
		seen[p.Fault]++
		switch p.Fault {
		case Partition:
			require.Len(t, p.Groups, 2)
			var all []int
			for _, g := range p.Groups {
				require.NotEmpty(t, g)
				all = append(all, g...)
			}
			require.ElementsMatch(t, []int{0, 1, 2, 3}, all)
		case Kill, Stop:
			require.True(t, p.Node >= 0 && p.Node < 4)
		}
	}
	require.Len(t, seen, 4)
	require.NotEqual(t, Schedule(7, 4, 0).String()+Schedule(7, 4, 1).String(), Schedule(8, 4, 0).String()+Schedule(8, 4, 1).String())
}

// TestBound pins the liveness bound's figures for 1-second blocks.
func TestBound(t *testing.T) {
	require.Equal(t, 39*time.Second, Bound(5*time.Second, time.Second))
	require.Equal(t, 79*time.Second, Bound(25*time.Second, time.Second))
}
