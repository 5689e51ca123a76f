//! Wall time and this thread's CPU time, so figures taken while others compile on the same
//! cores can be compared on CPU.

use std::fmt;
use std::time::{Duration, Instant};

/// This thread's CPU time so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[derive(Clone, Copy)]
pub struct Times {
    pub wall: Instant,
    pub cpu: Duration,
}

/// Wall and CPU time spent.
#[derive(Clone, Copy, Default)]
pub struct Spent {
    pub wall: Duration,
    pub cpu: Duration,
}

impl Times {
    pub fn now() -> Times {
        Times {
            wall: Instant::now(),
            cpu: thread_cpu(),
        }
    }
    pub fn elapsed(&self) -> Spent {
        Spent {
            wall: self.wall.elapsed(),
            cpu: thread_cpu() - self.cpu,
        }
    }
}

impl std::ops::AddAssign for Spent {
    fn add_assign(&mut self, other: Spent) {
        self.wall += other.wall;
        self.cpu += other.cpu;
    }
}

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:.2?} CPU ({:.2?} wall)", self.cpu, self.wall)
    }
}
