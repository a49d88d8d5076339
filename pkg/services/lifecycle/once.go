package lifecycle

import "sync"

// Once is a service's run state; the zero value is a service not yet
// started.
type Once struct {
	mu      sync.Mutex
	running bool
	stopped bool
}

// Start runs start unless the service has started or stopped before.
func (o *Once) Start(start func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.running || o.stopped {
		return
	}
	o.running = true
	start()
}

// Stop marks the service stopped and runs stop if it had started; later
// calls do nothing.
func (o *Once) Stop(stop func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped {
		return
	}
	o.stopped = true
	if o.running {
		stop()
	}
}
