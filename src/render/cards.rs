//! Each research note's card as HTML, made once per render from the theme's `note_card`
//! component and shared by every list that shows the note (client, capability and spec
//! revision pages, related notes): a note listed on forty pages is rendered once, not forty
//! times. Templates splice it in as `n.html`, and render the component themselves where it
//! is absent. A list takes each card as a template value made once too ([`Card`]): tera
//! shares it instead of converting the card anew for every page.

use serde::{Serialize, Serializer};
use std::sync::Arc;

/// The component that renders one card, `note_card(n)`, in the theme's `components.html`.
const CARD_COMPONENT: &str = "note_card";

/// A card's HTML, shared by the lists showing it (a template prints it with `| safe`).
#[derive(Debug, Clone)]
pub struct CardHtml(pub(super) Arc<str>);

impl Serialize for CardHtml {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Whether `tera`'s card can be made once and shared: the theme defines `note_card` with one
/// argument, `n`, and no component reads an implicit argument (`@name`, taken from the page
/// being rendered): a component sees only its arguments, so the card is then the same HTML
/// on every page that shows it.
pub fn shareable(tera: &tera::Tera) -> bool {
    let Some(card) = tera.get_component_definition(CARD_COMPONENT) else {
        return false;
    };
    let one_argument = matches!(card.args(), [n] if n.name() == "n" && !n.is_implicit());
    let implicit = tera.get_component_names().any(|name| {
        (tera.get_component_definition(name))
            .is_some_and(|c| c.args().iter().any(|a| a.is_implicit()))
    });
    one_argument && card.rest_param().is_none() && !implicit
}

/// `card` (a note's card view) rendered by the theme's `note_card`; `None` when `tera` fails
/// to, which leaves the card to the page's template, where the failure is reported with the
/// page.
pub fn render(tera: &tera::Tera, card: &impl Serialize) -> Option<CardHtml> {
    let mut context = tera::Context::new();
    context.insert("n", card);
    let html = tera.render_component(CARD_COMPONENT, &context, None, true);
    html.ok().map(|html| CardHtml(Arc::from(html)))
}

/// A note's card as a template value, made once per render and shared by the lists showing
/// the note: tera takes a value it already has as it is (a shared reference), where a
/// card view would be converted, every string copied, on every page.
#[derive(Debug, Clone)]
pub struct Card(pub(super) tera::Value);

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tera(components: &str) -> tera::Tera {
        let mut tera = tera::Tera::new();
        tera.add_raw_template("components.html", components)
            .expect("the components compile");
        tera
    }

    /// A card is shared only when the component sees nothing but its argument.
    #[test]
    fn a_card_is_shared_only_when_it_sees_its_argument_alone() {
        let card = "{% component note_card(n) %}<li>{{ n.title }}</li>{% endcomponent note_card %}";
        assert!(shareable(&tera(card)));
        let none = "{% component note_cards(notes) %}{% endcomponent note_cards %}";
        assert!(!shareable(&tera(none)), "no note_card component");
        let other = "{% component note_card(card) %}{% endcomponent note_card %}";
        assert!(!shareable(&tera(other)), "another argument name");
        let implicit =
            format!("{card}{{% component when(@lang) %}}{{{{ lang }}}}{{% endcomponent when %}}");
        assert!(!shareable(&tera(&implicit)), "a component reads the page");
    }
}
