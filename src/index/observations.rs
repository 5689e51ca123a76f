//! Observations resolved against the site: the client each one is of, the transcript beside
//! it, the observations of each client, and the support cells that cite each one.

use super::Ids;
use crate::model::{doc_id, text, Content};
use crate::text_file::Section;
use std::cmp::Ordering;
use std::collections::HashMap;

/// What the index knows of the site's observations.
#[derive(Debug, Clone, Default)]
pub struct Observations {
    /// Per observation: the client its `client` names, if the site has it.
    pub client: Vec<Option<usize>>,
    /// Per observation: the transcript its `transcript` names (in
    /// [`Content::transcripts`]), if there is one beside it.
    pub transcript: Vec<Option<usize>>,
    /// Per client: its observations, newest client version first (then newest day, then id).
    pub by_client: Vec<Vec<usize>>,
    /// Per observation: the support cells that cite it, as (client, position in its
    /// `support`), in client order.
    pub cited_by: Vec<Vec<(usize, usize)>>,
}

impl Observations {
    pub(super) fn build(content: &Content, ids: &Ids) -> Observations {
        let folder = format!(
            "{}/{}/",
            crate::load::CONTENT_DIR,
            Section::Observations.dir()
        );
        let transcripts: HashMap<&str, usize> = (content.transcripts.iter().enumerate())
            .filter(|(_, t)| {
                crate::text_file::display_path(&t.path) == format!("{folder}{}", t.name)
            })
            .map(|(i, t)| (t.name.as_str(), i))
            .collect();
        let observations = &content.observations;
        let client: Vec<Option<usize>> = (observations.iter())
            .map(|o| ids.client(text(&o.client)))
            .collect();
        let transcript = (observations.iter())
            .map(|o| transcripts.get(text(&o.transcript)).copied())
            .collect();
        let mut by_client = vec![Vec::new(); content.clients.len()];
        for (o, c) in client.iter().enumerate() {
            if let Some(c) = c {
                by_client[*c].push(o);
            }
        }
        for list in &mut by_client {
            list.sort_by(|&a, &b| newest_first(content, a, b));
        }
        let mut cited_by = vec![Vec::new(); observations.len()];
        for (c, cl) in content.clients.iter().enumerate() {
            for (s, cell) in cl.support.iter().enumerate() {
                for id in &cell.observations {
                    if let Some(o) = ids.observation(&id.value) {
                        if cited_by[o].last() != Some(&(c, s)) {
                            cited_by[o].push((c, s));
                        }
                    }
                }
            }
        }
        Observations {
            client,
            transcript,
            by_client,
            cited_by,
        }
    }
}

/// Observation `a` before `b` when its client version is newer, then its day, then by id.
pub fn newest_first(content: &Content, a: usize, b: usize) -> Ordering {
    let (oa, ob) = (&content.observations[a], &content.observations[b]);
    compare_versions(
        ob.client_version().unwrap_or(""),
        oa.client_version().unwrap_or(""),
    )
    .then_with(|| text(&ob.observed).cmp(text(&oa.observed)))
    .then_with(|| doc_id(&oa.id, &oa.doc).cmp(doc_id(&ob.id, &ob.doc)))
}

/// Compares two client versions part by part (`2.1.10` after `2.1.9`): runs of digits as
/// numbers, anything else as text; a leading `v` is ignored.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let parts = |v: &str| -> Vec<String> {
        let v = v.trim().trim_start_matches(['v', 'V']);
        let mut out: Vec<String> = Vec::new();
        let mut digits = None;
        for c in v.chars() {
            let is_digit = c.is_ascii_digit();
            if !c.is_ascii_alphanumeric() {
                digits = None;
                continue;
            }
            match (digits, out.last_mut()) {
                (Some(d), Some(last)) if d == is_digit => last.push(c),
                _ => out.push(c.to_string()),
            }
            digits = Some(is_digit);
        }
        out
    };
    let (pa, pb) = (parts(a), parts(b));
    for (x, y) in pa.iter().zip(&pb) {
        let order = match (x.parse::<u128>(), y.parse::<u128>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            // A pre-release tag (`2.0.0-beta`) comes before the release's next number.
            (Ok(_), Err(_)) => Ordering::Greater,
            (Err(_), Ok(_)) => Ordering::Less,
            (Err(_), Err(_)) => x.cmp(y),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    // One is the other and more: a number more is a later release, a tag an earlier one.
    let numeric = |p: &String| p.parse::<u128>().is_ok();
    match pa.len().cmp(&pb.len()) {
        Ordering::Greater if !numeric(&pa[pb.len()]) => Ordering::Less,
        Ordering::Less if !numeric(&pb[pa.len()]) => Ordering::Greater,
        order => order,
    }
}

#[cfg(test)]
mod tests {
    use super::compare_versions;
    use std::cmp::Ordering::*;

    #[test]
    fn versions_compare_by_number_not_by_text() {
        assert_eq!(compare_versions("2.1.10", "2.1.9"), Greater);
        assert_eq!(compare_versions("v1.2", "1.2"), Equal);
        assert_eq!(compare_versions("1.2", "1.2.1"), Less);
        assert_eq!(compare_versions("0.10.0", "0.9.12"), Greater);
        assert_eq!(compare_versions("", "0.1"), Less);
        assert_eq!(compare_versions("2.0.0-beta.1", "2.0.0"), Less);
    }
}
