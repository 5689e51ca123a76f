//! The one integration test binary: a module per feature, fixture sites under
//! `tests/fixtures/`, helpers in `support`.

mod support;

mod architecture;
mod bad_input;
mod build;
mod cli_errors;
mod lint_formats;
mod lint_incremental;
mod lint_rules;
mod lsp;
mod mcp;
mod observations;
mod printing;
mod provenance;
mod render;
mod self_contained;
mod serve;
mod serve_rebuild;
mod site_features;
