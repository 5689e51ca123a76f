//! Tests: the GitHub Action and the release workflow. (Filled in below.)
