//! A document checked against the structure an XML Schema declares, read from the `.xsd`
//! itself with roxmltree: which elements exist, the attributes each takes (and requires), the
//! children each may hold and whether it holds text. Enough for the flat schemas CI readers
//! publish (junit-10.xsd); the order and number of children and the patterns of attribute
//! values are not checked here: `.ci/run` checks the whole schema with xmllint.

use roxmltree::Node;
use std::collections::{BTreeMap, BTreeSet};

const XS: &str = "http://www.w3.org/2001/XMLSchema";

/// What the schema says one element may be.
#[derive(Debug, Default)]
struct Shape {
    attributes: BTreeSet<String>,
    required: BTreeSet<String>,
    /// The elements it may hold, by name, with their shape when declared in place (else
    /// they are declared at the top of the schema).
    children: BTreeMap<String, Option<Shape>>,
    text: bool,
    /// A named complex type (`rerunType`) that says the rest.
    of_type: Option<String>,
}

/// The elements and named types an XML Schema declares.
pub struct Schema {
    elements: BTreeMap<String, Shape>,
    types: BTreeMap<String, Shape>,
}

impl Schema {
    pub fn read(xsd: &str) -> Schema {
        let doc = roxmltree::Document::parse(xsd).expect("the schema is XML");
        let (mut elements, mut types) = (BTreeMap::new(), BTreeMap::new());
        for node in xs_children(doc.root_element()) {
            let name = node.attribute("name").unwrap_or_default().to_string();
            match node.tag_name().name() {
                "element" => {
                    elements.insert(name, element(node));
                }
                "complexType" => {
                    types.insert(name, complex(node));
                }
                _ => {}
            }
        }
        Schema { elements, types }
    }

    /// Every way `xml` departs from the schema, as `element: what` lines.
    pub fn errors(&self, xml: &str) -> Vec<String> {
        let doc = match roxmltree::Document::parse(xml) {
            Ok(doc) => doc,
            Err(e) => return vec![format!("not XML: {e}")],
        };
        let mut errors = Vec::new();
        let root = doc.root_element();
        match self.elements.get(root.tag_name().name()) {
            Some(shape) => self.check(root, shape, &mut errors),
            None => errors.push(format!("{}: no such element", root.tag_name().name())),
        }
        errors
    }

    fn check(&self, node: Node, declared: &Shape, errors: &mut Vec<String>) {
        let name = node.tag_name().name();
        let shape = (declared.of_type.as_ref())
            .and_then(|t| self.types.get(t))
            .unwrap_or(declared);
        for attribute in node.attributes() {
            if !shape.attributes.contains(attribute.name()) {
                errors.push(format!("{name}: takes no attribute `{}`", attribute.name()));
            }
        }
        for required in &shape.required {
            if node.attribute(required.as_str()).is_none() {
                errors.push(format!("{name}: needs the attribute `{required}`"));
            }
        }
        for child in node.children() {
            if child.is_text() {
                let text = child.text().unwrap_or("").trim();
                if !shape.text && !text.is_empty() {
                    errors.push(format!("{name}: holds text ({text:?})"));
                }
                continue;
            }
            if !child.is_element() {
                continue;
            }
            let child_name = child.tag_name().name();
            let child_shape = match shape.children.get(child_name) {
                Some(Some(local)) => Some(local),
                Some(None) => self.elements.get(child_name),
                None => {
                    errors.push(format!("{name}: may not hold `{child_name}`"));
                    continue;
                }
            };
            match child_shape {
                Some(child_shape) => self.check(child, child_shape, errors),
                None => errors.push(format!("{child_name}: no such element")),
            }
        }
    }
}

fn xs_children<'a, 'i>(node: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(|n| n.is_element() && n.tag_name().namespace() == Some(XS))
}

/// An `xs:element` declaration: of a simple type (text), of a named type, or with its complex
/// type in place.
fn element(node: Node) -> Shape {
    match node.attribute("type") {
        Some(t) if t.starts_with("xs:") => Shape {
            text: true,
            ..Shape::default()
        },
        Some(named) => Shape {
            of_type: Some(named.to_string()),
            ..Shape::default()
        },
        None => xs_children(node)
            .find(|n| n.tag_name().name() == "complexType")
            .map_or_else(Shape::default, complex),
    }
}

/// An `xs:complexType`: its attributes, the elements its sequences and choices name, and
/// whether it is mixed (holds text).
fn complex(node: Node) -> Shape {
    let mut shape = Shape {
        text: node.attribute("mixed") == Some("true"),
        ..Shape::default()
    };
    collect(node, &mut shape);
    shape
}

fn collect(node: Node, shape: &mut Shape) {
    for d in xs_children(node) {
        match d.tag_name().name() {
            "attribute" => {
                let name = d.attribute("name").unwrap_or_default().to_string();
                if d.attribute("use") == Some("required") {
                    shape.required.insert(name.clone());
                }
                shape.attributes.insert(name);
            }
            "element" => match (d.attribute("ref"), d.attribute("name")) {
                (Some(global), _) => {
                    shape.children.insert(global.to_string(), None);
                }
                (None, Some(local)) => {
                    let declared = Some(element(d));
                    shape.children.insert(local.to_string(), declared);
                }
                (None, None) => {}
            },
            "sequence" | "choice" | "all" => collect(d, shape),
            _ => {}
        }
    }
}
