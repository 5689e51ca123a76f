//! Tests: render.
