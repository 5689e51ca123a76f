//! The settings part of the diff's Markdown: each changed key of `site.yaml` and each changed
//! file of `templates/`, `themes/` and `static/` a row of its own, ahead of the content's
//! changes, a key that loosens the base marked. Rendered inert, as the rest
//! ([`super::markdown`]).

use super::markdown::{code, more, MAX_ROWS};
use super::model::Settings;
use crate::lint::format::inert::Budget;

/// Appends the settings tables to `out` (nothing when nothing changed).
pub(crate) fn render(out: &mut Budget, settings: &Settings) {
    if settings.is_empty() {
        return;
    }
    out.push(
        "\n**Settings, templates, themes and static files** (they set this check's rules and \
         what every page runs: review each)\n",
    );
    if !settings.keys.is_empty() {
        out.push("\n| site.yaml key | before | after | |\n| --- | --- | --- | --- |\n");
        for key in settings.keys.iter().take(MAX_ROWS) {
            let side = |value: &Option<String>| value.as_deref().map_or("—".to_string(), code);
            let mark = match key.loosens {
                true => "⚠️ loosens the base's: not used by a check with `--config-from` the base",
                false => "",
            };
            out.push(&format!(
                "| {} | {} | {} | {mark} |\n",
                code(&key.key),
                side(&key.before),
                side(&key.after)
            ));
        }
        more(out, settings.keys.len());
    }
    if !settings.files.is_empty() {
        out.push("\n| file | change | kind |\n| --- | --- | --- |\n");
        for file in settings.files.iter().take(MAX_ROWS) {
            out.push(&format!(
                "| {} | {} | {} |\n",
                code(&file.path),
                file.change,
                file.kind
            ));
        }
        more(out, settings.files.len());
    }
}
