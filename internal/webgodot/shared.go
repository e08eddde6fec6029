package webgodot

import "sync"

// Shared is a plugin's one Runner: one browser for every run of the
// plugin's life, since starting a browser costs a second or more. The zero
// value is ready to use; the runner starts on the first Get.
type Shared struct {
	mu sync.Mutex
	r  *Runner
}

// Get returns the runner, starting it with setup on first use.
func (s *Shared) Get(setup Setup) (*Runner, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r != nil {
		return s.r, nil
	}
	r, err := New(setup)
	if err != nil {
		return nil, err
	}
	s.r = r
	return r, nil
}

// Close stops the runner if one started; the next Get starts a new one.
func (s *Shared) Close() {
	s.mu.Lock()
	r := s.r
	s.r = nil
	s.mu.Unlock()
	if r != nil {
		_ = r.Close()
	}
}

// Started returns the runner if one is running, else nil; it starts none.
func (s *Shared) Started() *Runner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r
}
