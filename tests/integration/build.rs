//! Tests: build.
