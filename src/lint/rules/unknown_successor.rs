//! FN208 unknown-successor: a `supersededBy` that names no research note, or that leads back
//! to the note (itself, or through other notes' `supersededBy`).

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::doc_id;

pub const META: RuleMeta = RuleMeta {
    code: "FN208",
    name: "unknown-successor",
    severity: Severity::Error,
    scope: Scope::Global, // reads every note's id
    reads: Reads::FrontMatter,
    summary: "a `supersededBy` id that names no research note, or leads back to the note",
    doc: r#"## What it flags

A note's `supersededBy` that is not the id of a `content/research/<id>.md`; and a
`supersededBy` that leads back to its own note: the note itself, or a note whose successors
(following each one's `supersededBy`) come back to it, each note of the loop reported.

## Why

The superseded note's page links to its successor; an unknown id is a dead link. It often
means the successor was renamed or deleted in the same pull request. A loop of successors
sends readers round in circles and never to the note that holds.

## Example

```yaml
status: superseded
supersededBy: hermes-falls-back-to-sse
```

Use the successor's current id."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let successors = cx
        .index
        .content
        .notes
        .iter()
        .filter_map(|n| n.superseded_by.as_ref());
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Notes, "successor"),
        successors,
    );
    report_loops(cx, sink);
}

/// Most notes of a loop a message lists before `…`.
const LOOP_SHOWN: usize = 5;

/// Reports each note whose successors lead back to it, at its `supersededBy`.
fn report_loops(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let notes = &cx.index.content.notes;
    let successor = |n: usize| {
        let next = notes[n].superseded_by.as_ref()?;
        cx.index.ids.note(&next.value)
    };
    for members in loops(notes.len(), successor) {
        let ids: Vec<&str> = (members.iter())
            .map(|&n| doc_id(&notes[n].id, &notes[n].doc))
            .collect();
        for (at, &n) in members.iter().enumerate() {
            let Some(superseded_by) = &notes[n].superseded_by else {
                continue;
            };
            let message = if members.len() == 1 {
                format!("note `{}` names itself as its successor", ids[0])
            } else {
                // The loop as seen from this note: it, its successor, …, and it again.
                let mut path: Vec<&str> = (0..members.len())
                    .map(|k| ids[(at + k) % members.len()])
                    .take(LOOP_SHOWN)
                    .collect();
                path.push(if members.len() > LOOP_SHOWN {
                    "…"
                } else {
                    ids[at]
                });
                format!(
                    "successors lead back to this note: {} ({} notes supersede each other)",
                    path.join(" → "),
                    members.len()
                )
            };
            sink.report(
                &META,
                superseded_by.span,
                message,
                Some(
                    "name the note that replaces this one: a chain of `supersededBy` must end \
                     at a note that is not superseded"
                        .to_string(),
                ),
            );
        }
    }
}

/// The loops of a graph where each of `count` nodes has at most one successor: each loop's
/// nodes in successor order, starting at its lowest node; loops by their lowest node. Linear:
/// each node is walked once.
fn loops(count: usize, successor: impl Fn(usize) -> Option<usize>) -> Vec<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        /// On the walk from the current start.
        OnWalk,
        Done,
    }
    let mut state = vec![State::New; count];
    let mut found = Vec::new();
    for start in 0..count {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(n) = at {
            match state[n] {
                State::New => {
                    state[n] = State::OnWalk;
                    walk.push(n);
                    at = successor(n);
                }
                State::OnWalk => {
                    let from = walk.iter().position(|&w| w == n).expect("on the walk");
                    let mut members = walk[from..].to_vec();
                    let lowest = (0..members.len())
                        .min_by_key(|&k| members[k])
                        .expect("not empty");
                    members.rotate_left(lowest);
                    found.push(members);
                    break;
                }
                State::Done => break,
            }
        }
        for n in walk {
            state[n] = State::Done;
        }
    }
    found.sort_by_key(|members| members[0]);
    found
}

#[cfg(test)]
mod tests {
    use super::loops;

    fn of(successors: &[Option<usize>]) -> Vec<Vec<usize>> {
        loops(successors.len(), |n| successors[n])
    }

    #[test]
    fn finds_every_loop_once() {
        assert_eq!(of(&[Some(0)]), [[0]]);
        assert_eq!(of(&[Some(1), Some(0)]), [[0, 1]]);
        // 0 → 1 → 2 → 3 → 1: the loop is 1, 2, 3; 0 only leads into it. 4 → 5 ends.
        let tail = [Some(1), Some(2), Some(3), Some(1), Some(5), None];
        assert_eq!(of(&tail), [[1, 2, 3]]);
        assert_eq!(of(&[Some(2), Some(0), Some(1)]), [[0, 2, 1]]);
        assert!(of(&[None, Some(0), Some(1)]).is_empty());
    }
}
