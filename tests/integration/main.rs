//! The one integration test binary: a module per feature, fixture sites under
//! `tests/fixtures/`, helpers in `support`.

mod support;

mod architecture;
mod assets;
mod bad_input;
mod build;
mod cli_errors;
mod diff;
mod docs;
mod evidence_fields;
mod hostile_git;
mod hostile_render;
mod init;
mod lint_formats;
mod lint_incremental;
mod lint_rules;
mod lsp;
mod mcp;
mod net;
mod observations;
mod printing;
mod probe;
mod probe_http;
mod probe_judge;
mod probe_model;
mod probe_modes;
mod probe_oauth;
mod provenance;
mod render;
mod reported;
mod revisions;
mod second_site;
mod self_contained;
mod serve;
mod serve_rebuild;
mod site_features;
mod site_words;
mod submit;
mod take_away;
mod trusted_config;
mod workflows;
