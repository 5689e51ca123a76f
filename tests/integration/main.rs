//! The one integration test binary: a module per feature, fixture sites under
//! `tests/fixtures/`, helpers in `support`.

mod support;

mod build;
mod lint_formats;
mod lint_rules;
mod render;
