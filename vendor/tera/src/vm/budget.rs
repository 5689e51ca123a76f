//! A render's budget (a fieldnotes patch on tera 2.4.0): how many instructions one top-level
//! render may run and how many bytes it may make, so that a template from an untrusted pull
//! request can exhaust neither time (a loop that prints nothing included) nor memory.
//!
//! The budget is per thread: a render runs on the thread that calls it, includes, macros and
//! components included, so every nested interpreter draws from the same budget.

use std::cell::Cell;

/// Caps on one render ([`crate::Tera::set_render_limits`]). `None`: no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderLimits {
    /// Most instructions one render runs (each loop iteration costs a few).
    pub max_steps: Option<u64>,
    /// Most bytes one render makes: text written (to the output or a captured `set` block)
    /// plus strings built by `~`, filters and functions.
    pub max_bytes: Option<u64>,
}

/// Why a render stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exhausted {
    Steps(u64),
    Bytes(u64),
}

impl Exhausted {
    pub(crate) fn message(self) -> String {
        match self {
            Exhausted::Steps(n) => {
                format!("the render ran past its limit of {n} steps (a loop runs too long)")
            }
            Exhausted::Bytes(n) => {
                format!("the render made more than its limit of {n} bytes of text")
            }
        }
    }
}

thread_local! {
    static LIMITS: Cell<RenderLimits> = const { Cell::new(RenderLimits { max_steps: None, max_bytes: None }) };
    static STEPS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Held while a top-level render runs: the outermost one on a thread starts the count.
pub(crate) struct Guard;

/// Starts a render under `limits`. A render started from inside another (a filter that
/// renders) shares the outer render's budget.
pub(crate) fn start(limits: RenderLimits) -> Guard {
    let depth = DEPTH.with(|d| {
        let depth = d.get();
        d.set(depth + 1);
        depth
    });
    if depth == 0 {
        LIMITS.with(|l| l.set(limits));
        STEPS.with(|s| s.set(0));
        BYTES.with(|b| b.set(0));
    }
    Guard
}

impl Drop for Guard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Counts one instruction.
#[inline(always)]
pub(crate) fn step() -> Result<(), Exhausted> {
    STEPS.with(|s| {
        let steps = s.get() + 1;
        s.set(steps);
        // Checking the cap every 1024 steps keeps the count cheap.
        if steps & 1023 == 0 {
            if let Some(max) = LIMITS.with(|l| l.get().max_steps) {
                if steps > max {
                    return Err(Exhausted::Steps(max));
                }
            }
        }
        Ok(())
    })
}

/// Counts `n` bytes made, before they are made where the caller can.
#[inline(always)]
pub(crate) fn bytes(n: usize) -> Result<(), Exhausted> {
    BYTES.with(|b| {
        let total = b.get().saturating_add(n as u64);
        b.set(total);
        match LIMITS.with(|l| l.get().max_bytes) {
            Some(max) if total > max => Err(Exhausted::Bytes(max)),
            _ => Ok(()),
        }
    })
}
