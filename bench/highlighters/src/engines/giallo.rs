//! giallo (Zola's highlighter: VS Code's TextMate grammars from shiki, Oniguruma regexes),
//! with its built-in grammar dump and its own HTML renderer in class mode. Its classes name a
//! theme's colours (`g-…`), not token kinds: using it would mean giallo-generated CSS.

use super::Engine;
use giallo::{HighlightOptions, HtmlRenderer, Registry, RenderOptions, ThemeVariant};

pub struct Giallo {
    registry: Registry,
    renderer: HtmlRenderer,
}

impl Giallo {
    pub fn new() -> Giallo {
        let mut registry = Registry::builtin().expect("giallo's built-in dump loads");
        registry.link_grammars();
        Giallo {
            registry,
            renderer: HtmlRenderer {
                css_class_prefix: Some("g-".to_string()),
                ..Default::default()
            },
        }
    }
}

impl Engine for Giallo {
    fn name(&self) -> String {
        "giallo 0.5.2 (builtin dump, onig)".to_string()
    }

    fn highlight(&mut self, lang: &str, code: &str) -> Option<String> {
        if !self.registry.contains_grammar(lang) {
            return None;
        }
        let options = HighlightOptions::new(lang, ThemeVariant::Single("github-light"));
        let highlighted = self.registry.highlight(code, &options).ok()?;
        Some(
            self.renderer
                .render(&highlighted, &RenderOptions::default()),
        )
    }
}
