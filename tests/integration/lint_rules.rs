//! Tests: lint_rules.
