//! Tests: lint_formats.
