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

/// Bytes the budget still allows, when it has a cap.
fn remaining() -> Option<u64> {
    let max = LIMITS.with(|l| l.get().max_bytes)?;
    Some(max.saturating_sub(BYTES.with(Cell::get)))
}

/// Fails, without counting them, when `n` more bytes would exceed the budget: for a filter
/// that knows the size of what it is about to build before it builds it.
pub(crate) fn check(n: usize) -> crate::errors::TeraResult<()> {
    match (remaining(), LIMITS.with(|l| l.get().max_bytes)) {
        (Some(left), Some(max)) if n as u64 > left => {
            Err(crate::errors::Error::message(Exhausted::Bytes(max).message()))
        }
        _ => Ok(()),
    }
}

/// Counts the bytes of `value` shown (a string its length, a list or map the sum of its
/// parts, each part at least one), when a value is put into a list or map. Lists and maps
/// share their parts, so a few bytes of template (`{% set a = [a, a] %}` in a loop) can name
/// a value far larger than memory: counted as it is built, that value runs out of budget
/// before any filter, comparison or write walks it. The walk stops once past the budget, so
/// it costs at most as much as the budget.
pub(crate) fn charge_value(value: &crate::Value) -> Result<(), Exhausted> {
    let Some(left) = remaining() else {
        return Ok(());
    };
    let weight = weight(value, left.saturating_add(1));
    bytes(usize::try_from(weight).unwrap_or(usize::MAX))
}

/// The bytes of `value` shown, counted up to `limit`.
fn weight(value: &crate::Value, limit: u64) -> u64 {
    use crate::value::ValueInner;
    let mut total: u64 = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total = total.saturating_add(match &v.inner {
            ValueInner::String(s) => s.as_str().len().max(1) as u64,
            ValueInner::Bytes(b) => b.len().max(1) as u64,
            ValueInner::Array(items) => {
                stack.extend(items.iter());
                2
            }
            ValueInner::Map(map) => {
                for (key, item) in map.iter() {
                    total = total.saturating_add(key.as_str().map_or(8, str::len) as u64);
                    stack.push(item);
                }
                2
            }
            _ => 1,
        });
        if total > limit {
            break;
        }
    }
    total
}

/// A writer that counts each write against the budget before it takes it: a value is
/// formatted through one (a list's text is not known before it is written).
pub(crate) struct Metered<W>(pub W);

impl<W: std::io::Write> std::io::Write for Metered<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        bytes(buf.len()).map_err(|e| std::io::Error::other(e.message()))?;
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// `value` as text, counted against the budget as it is written (a string as it is: it
/// exists already).
pub(crate) fn format(value: &crate::Value) -> crate::errors::TeraResult<String> {
    if let Some(s) = value.as_str() {
        return Ok(s.to_string());
    }
    let mut out = Vec::new();
    value
        .format(&mut Metered(&mut out))
        .map_err(|e| match exhausted() {
            Some(x) => crate::errors::Error::message(x.message()),
            None => e.into(),
        })?;
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Why the budget ran out, if it has (a write through [`Metered`] failed on it).
pub(crate) fn exhausted() -> Option<Exhausted> {
    let max = LIMITS.with(|l| l.get().max_bytes)?;
    (BYTES.with(Cell::get) > max).then_some(Exhausted::Bytes(max))
}
