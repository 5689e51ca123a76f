//! Tests: provenance.
