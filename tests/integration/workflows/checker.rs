//! The least-privilege checker over a workflow's or a composite action's YAML: each rule a
//! function of the parsed file, each finding one line naming the job or step and the rule.
//!
//! 1. No `${{ }}` inside a `run:` script: event data, inputs and outputs reach scripts only
//!    through `env:`.
//! 2. The workflow's own `permissions:` are set, and read-only (`{}`, or each `read`/`none`).
//! 3. A job that runs third-party code (package installers, a build, a client, an action not
//!    GitHub's own) holds no write permission.
//! 4. Every `actions/checkout` says `persist-credentials: false`.
//! 5. A token (`github.token`, `secrets.*`) sits only in a step's `env:` or `with:`, never
//!    in a workflow's or a job's `env:` where every step would see it.
//! 6. Every action of another repository is pinned to a full commit hash.

use serde_yaml::Value;

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

fn steps(value: &Value) -> Vec<&Value> {
    value["steps"].as_sequence().into_iter().flatten().collect()
}

/// The step's name for findings: its `name`, `id`, `uses` or first script line.
fn step_name(step: &Value) -> String {
    for key in ["name", "id", "uses"] {
        if let Some(name) = step[key].as_str() {
            return name.to_string();
        }
    }
    text(&step["run"]).lines().next().unwrap_or("?").to_string()
}

/// What in a script runs code the workflow did not write: package installers and runners,
/// builds (which run build scripts), and the clients the observe driver installs and runs.
const THIRD_PARTY: [&str; 14] = [
    "npm ",
    "npx ",
    "yarn ",
    "pnpm ",
    "pip install",
    "pip3 install",
    "pipx ",
    "uv pip",
    "uvx ",
    "cargo build",
    "cargo run",
    "cargo install",
    " install \"$id\"",
    " probe \"$id\"",
];

/// Whether `step` runs third-party code: a script that does, or an action that is neither
/// GitHub's (`actions/`, `github/`) nor this repository's (`./`).
fn runs_third_party(step: &Value) -> bool {
    let run = text(&step["run"]);
    let uses = text(&step["uses"]);
    THIRD_PARTY.iter().any(|p| run.contains(p))
        || run.contains("observe.py") && (run.contains(" install ") || run.contains(" probe "))
        || (!uses.is_empty()
            && !uses.starts_with("actions/")
            && !uses.starts_with("github/")
            && !uses.starts_with("./"))
}

/// Whether a `permissions:` value grants any write.
fn writes(permissions: &Value) -> bool {
    match permissions {
        Value::String(all) => all == "write-all",
        Value::Mapping(map) => map.values().any(|v| text(v) == "write"),
        _ => false,
    }
}

fn mentions_token(value: &Value) -> bool {
    let yaml = serde_yaml::to_string(value).unwrap_or_default();
    yaml.contains("github.token") || yaml.contains("secrets.")
}

/// Every breach of the rules above in the workflow or action `file`, parsed from `source`.
pub fn check(file: &str, source: &str) -> Vec<String> {
    let yaml: Value = match serde_yaml::from_str(source) {
        Ok(yaml) => yaml,
        Err(e) => return vec![format!("{file}: not YAML: {e}")],
    };
    let mut found = Vec::new();
    let is_action = yaml.get("runs").is_some();
    let mut jobs: Vec<(String, &Value)> = Vec::new();
    if is_action {
        jobs.push(("(the action)".to_string(), &yaml["runs"]));
    } else {
        let workflow_permissions = yaml.get("permissions");
        match workflow_permissions {
            None => found.push(format!(
                "{file}: no workflow-level `permissions:`; the token's default may write"
            )),
            Some(p) if writes(p) || text(p) == "read-all" => found.push(format!(
                "{file}: workflow-level `permissions:` grant more than read; give writes to \
                 the one job that needs them"
            )),
            Some(_) => {}
        }
        if yaml.get("env").is_some_and(mentions_token) {
            found.push(format!("{file}: a token in the workflow's `env:`"));
        }
        for (name, job) in yaml["jobs"].as_mapping().into_iter().flatten() {
            jobs.push((text(name).to_string(), job));
        }
        for (name, job) in &jobs {
            let permissions = job.get("permissions").or(workflow_permissions);
            let job_writes = permissions.is_none_or(writes);
            if let Some(step) = steps(job).into_iter().find(|s| runs_third_party(s)) {
                if job_writes {
                    found.push(format!(
                        "{file}: job `{name}` runs third-party code (step `{}`) and holds a \
                         write token",
                        step_name(step)
                    ));
                }
            }
            if job.get("env").is_some_and(mentions_token) {
                found.push(format!(
                    "{file}: job `{name}` puts a token in its `env:`, for every step"
                ));
            }
        }
    }
    for (name, job) in &jobs {
        for step in steps(job) {
            let step_name = step_name(step);
            if text(&step["run"]).contains("${{") {
                found.push(format!(
                    "{file}: job `{name}`, step `{step_name}`: `${{{{` inside `run:`; pass \
                     it through `env:`"
                ));
            }
            let uses = text(&step["uses"]);
            if uses.starts_with("actions/checkout@")
                && !matches!(&step["with"]["persist-credentials"], Value::Bool(false))
                && text(&step["with"]["persist-credentials"]) != "false"
            {
                found.push(format!(
                    "{file}: job `{name}`, step `{step_name}`: checkout without \
                     `persist-credentials: false`"
                ));
            }
            let pinned = uses.rsplit_once('@').is_some_and(|(_, rev)| {
                rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit())
            });
            if !uses.is_empty() && !uses.starts_with("./") && !pinned {
                found.push(format!(
                    "{file}: job `{name}`, step `{step_name}`: `{uses}` is not pinned to a \
                     commit hash"
                ));
            }
        }
    }
    found
}
