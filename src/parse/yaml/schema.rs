//! The YAML 1.2 core schema: which tags front matter may use, and what a scalar resolves to
//! (`yes` and `2025-03-26` are strings, `12` a number, `~` null).

use super::{NodeKind, ScalarType};
use saphyr_parser::{ScalarStyle, Tag};
use serde_yaml::{Number, Value};

/// What the YAML 1.2 core schema's tags (`!!str`, …) expand to.
pub(super) const CORE_TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// The core schema tags a scalar may carry; a list may carry `!!seq`, a mapping `!!map`.
pub(super) const SCALAR_TAGS: &[&str] = &["str", "null", "bool", "int", "float"];

/// The core schema tag's name (`str`, `seq`, …) when `tag` is one, else `None`.
pub(super) fn core_tag(tag: &Tag) -> Option<&str> {
    (tag.handle == CORE_TAG_PREFIX || tag.handle == "!!").then_some(tag.suffix.as_str())
}

/// A scalar under the YAML 1.2 core schema (quoted and block scalars are strings), its tag
/// checked already: `!!str` makes it a string, another resolves it as if it were plain.
pub(super) fn resolve_scalar(text: String, style: ScalarStyle, tag: Option<&Tag>) -> NodeKind {
    match tag.map(core_tag) {
        Some(Some("str")) => NodeKind::Scalar(text, ScalarType::Str),
        Some(_) => plain_kind(text),
        None if style == ScalarStyle::Plain => plain_kind(text),
        None => NodeKind::Scalar(text, ScalarType::Str),
    }
}

/// A plain scalar's node kind: null, or a scalar typed by what it resolves to.
fn plain_kind(text: String) -> NodeKind {
    match plain_type(&text) {
        None => NodeKind::Null,
        Some(ty) => NodeKind::Scalar(text, ty),
    }
}

/// What a plain scalar resolves to under the YAML 1.2 core schema; `None` for null.
fn plain_type(text: &str) -> Option<ScalarType> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return None,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return Some(ScalarType::Bool),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return Some(ScalarType::Float),
        _ => {}
    }
    if parse_int(text).is_some() {
        return Some(ScalarType::Int);
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let is_float = digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && text.parse::<f64>().is_ok();
    Some(if is_float {
        ScalarType::Float
    } else {
        ScalarType::Str
    })
}

/// A core-schema integer: decimal, `0x` hexadecimal or `0o` octal.
fn parse_int(text: &str) -> Option<Number> {
    if let Some(hex) = text.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok().map(Number::from);
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return u64::from_str_radix(oct, 8).ok().map(Number::from);
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>()
        .map(Number::from)
        .ok()
        .or_else(|| text.parse::<u64>().ok().map(Number::from))
}

/// A plain scalar's value: null, boolean, integer, float, or else a string.
pub(super) fn plain(text: &str) -> Value {
    match plain_type(text) {
        None => Value::Null,
        Some(ScalarType::Bool) => Value::Bool(text.starts_with(['t', 'T'])),
        Some(ScalarType::Int) => parse_int(text).map_or(Value::Null, Value::Number),
        Some(ScalarType::Float) => {
            let lower = text.to_ascii_lowercase();
            let f = match lower.trim_start_matches('+') {
                ".inf" => f64::INFINITY,
                "-.inf" => f64::NEG_INFINITY,
                ".nan" => f64::NAN,
                _ => text.parse().unwrap_or(f64::NAN),
            };
            Value::Number(f.into())
        }
        Some(ScalarType::Str) => Value::String(text.to_string()),
    }
}
