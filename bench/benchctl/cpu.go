package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ticks is USER_HZ, the unit of /proc CPU times (100 on Linux).
const tickMicros = 1e6 / 100

// cpuSnap is a CPU-time snapshot: processes in microseconds, the machine in ticks.
type cpuSnap struct {
	proc, redis, self float64
	// postgres is the CPU of each backend serving the run's database, by pid.
	postgres    map[string]float64
	idle, total float64
}

// delta is the CPU used between two snapshots.
type delta struct {
	proc, postgres, redis, self, idle, total float64
}

// sub subtracts b from a. A backend's CPU counts from b (or from its start, when it
// started in between); backends that exited in between are lost, never negative.
func (a cpuSnap) sub(b cpuSnap) delta {
	d := delta{proc: a.proc - b.proc, redis: a.redis - b.redis, self: a.self - b.self, idle: a.idle - b.idle, total: a.total - b.total}
	for pid, v := range a.postgres {
		d.postgres += v - b.postgres[pid]
	}
	return d
}

// readProc reads a /proc file of a process the benchmark measures.
func readProc(path string) ([]byte, error) {
	return os.ReadFile(path) //nolint:gosec // /proc paths built from process ids
}

// procCPU returns utime+stime of a process in microseconds.
func procCPU(pid string) float64 {
	b, err := readProc("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	s, _ := strconv.ParseFloat(f[12], 64)
	return (u + s) * tickMicros
}

// pgDatabase is the run's database: only its backends count as the PostgreSQL CPU
// (the server may be shared).
var pgDatabase string

// snapshot reads the CPU time of pid, of the PostgreSQL backends serving pgDatabase,
// of every redis-server process, of this process, and of the machine.
func snapshot(pid int) cpuSnap {
	s := cpuSnap{postgres: map[string]float64{}}
	if pid > 0 {
		s.proc = procCPU(strconv.Itoa(pid))
	}
	comms, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, c := range comms {
		b, err := readProc(c)
		if err != nil {
			continue
		}
		switch strings.TrimSpace(string(b)) {
		case "postgres":
			p := filepath.Base(filepath.Dir(c))
			// A backend's title: "postgres: 15/main: user database host(port) state".
			if cmd, err := readProc("/proc/" + p + "/cmdline"); err == nil && pgDatabase != "" &&
				bytes.Contains(cmd, []byte(" "+pgDatabase+" ")) {
				s.postgres[p] = procCPU(p)
			}
		case "redis-server":
			s.redis += procCPU(filepath.Base(filepath.Dir(c)))
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e3
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		for i := 1; i < len(f) && i <= 8; i++ {
			v, _ := strconv.ParseFloat(f[i], 64)
			s.total += v
			if i == 4 || i == 5 {
				s.idle += v
			}
		}
	}
	return s
}

// rssSampler records the highest VmRSS of a process, sampled every 50 ms.
type rssSampler struct {
	peak atomic.Int64
	done chan struct{}
	wg   sync.WaitGroup
}

func (r *rssSampler) start(pid int) {
	r.done = make(chan struct{})
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if st, err := procStatus(pid); err == nil && st["VmRSS"] > r.peak.Load() {
				r.peak.Store(st["VmRSS"])
			}
			select {
			case <-r.done:
				return
			case <-t.C:
			}
		}
	}()
}

func (r *rssSampler) stop() int64 {
	if r.done == nil {
		return 0
	}
	close(r.done)
	r.wg.Wait()
	return r.peak.Load()
}
