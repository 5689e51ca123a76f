//! Tests: site_features.
