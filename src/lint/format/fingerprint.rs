//! Stable fingerprints of findings, for formats whose readers track a finding across runs
//! (SARIF's `partialFingerprints`, GitLab's `fingerprint`): the same finding keeps its
//! fingerprint when lines above it move, and two equal findings in one file differ.

use super::Options;
use crate::diagnostic::Diagnostic;
use std::collections::HashMap;

/// One fingerprint per finding of `diagnostics` (in print order): 16 hex digits of FNV-1a
/// over the printed path, the code, the message and which occurrence of that triple it is.
/// No line or column goes in, so an edit above a finding leaves its fingerprint alone.
pub fn fingerprints(diagnostics: &[&Diagnostic], options: &Options) -> Vec<String> {
    let mut seen: HashMap<(String, &str, &str), u64> = HashMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let path = options.path(d);
            let count = seen.entry((path.clone(), d.code, &d.message)).or_insert(0);
            let occurrence = *count;
            *count += 1;
            let mut hash = Fnv::default();
            for part in [path.as_bytes(), d.code.as_bytes(), d.message.as_bytes()] {
                hash.write(part);
                hash.write(&[0]);
            }
            hash.write(&occurrence.to_le_bytes());
            format!("{:016x}", hash.0)
        })
        .collect()
}

/// 64-bit FNV-1a: simple, and the same on every platform and Rust release (std's hashers
/// promise neither).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(line: usize, message: &str) -> Diagnostic {
        Diagnostic {
            code: "FN601",
            name: "broken-link",
            severity: crate::Severity::Error,
            file: "content/research/a.md".into(),
            line,
            column: 1,
            end_line: line,
            end_column: 2,
            message: message.into(),
            help: None,
            span: Default::default(),
        }
    }

    #[test]
    fn moving_lines_keeps_fingerprints_and_repeats_differ() {
        let options = Options::default();
        let before = [finding(3, "gone"), finding(9, "gone"), finding(12, "other")];
        let after = [
            finding(5, "gone"),
            finding(11, "gone"),
            finding(14, "other"),
        ];
        let before: Vec<&Diagnostic> = before.iter().collect();
        let after: Vec<&Diagnostic> = after.iter().collect();
        let (a, b) = (
            fingerprints(&before, &options),
            fingerprints(&after, &options),
        );
        assert_eq!(a, b);
        assert_ne!(a[0], a[1], "the second `gone` is another finding");
        assert_eq!(a[0], "8bd53069f0cb87d1", "the same on every platform");
    }
}
