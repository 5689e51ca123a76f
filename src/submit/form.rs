//! An issue form's body read into its answers: GitHub renders each answer of an issue form
//! as a `### <label>` heading, a blank line and the answer (`_No response_` for one left
//! empty). The body is untrusted text: it is read with limits, every heading must be one the
//! form asks and appear once, and every answer keeps the line it starts at for messages.

use super::Problem;

/// The most a body may hold (GitHub's own limit on an issue body is 65,536 characters).
pub(crate) const MAX_BODY_BYTES: usize = 256 * 1024;

/// What GitHub writes for an optional field left empty.
const NO_RESPONSE: &str = "_No response_";

/// One question of the form: its label (the heading GitHub writes), whether it must be
/// answered, and the most its answer may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    pub label: &'static str,
    pub required: bool,
    pub max_chars: usize,
}

impl Question {
    /// The heading as a site words it: `Client`, `Capability` and `Client version` in the
    /// site's vocabulary (`Editor`, `Property`, `Editor version`), the rest as they are. A
    /// body may use either.
    pub fn heading(&self, words: &crate::config::Vocabulary) -> String {
        words.reword(self.label)
    }

    fn is(&self, heading: &str, words: &crate::config::Vocabulary) -> bool {
        self.label.eq_ignore_ascii_case(heading)
            || self.heading(words).eq_ignore_ascii_case(heading)
    }
}

const fn question(label: &'static str, required: bool, max_chars: usize) -> Question {
    Question {
        label,
        required,
        max_chars,
    }
}

pub(crate) const CLIENT: Question = question("Client", true, 100);
pub(crate) const CAPABILITY: Question = question("Capability", true, 100);
pub(crate) const STATUS: Question = question("Status", true, 20);
pub(crate) const EVIDENCE: Question = question("Evidence URL", true, 2048);
pub(crate) const SHOWS: Question = question("What the source shows", false, 300);
pub(crate) const QUOTE: Question = question("Quote", false, 500);
pub(crate) const VERSION: Question = question("Client version", false, 100);
pub(crate) const NOTES: Question = question("Notes", false, 2000);

/// Every question, in the form's order: the one definition of the form's headings, which
/// `fieldnotes workflows` writes the issue form from (`.github/ISSUE_TEMPLATE/report-support.yml`
/// asks them with these labels too; a test holds the two together).
pub const QUESTIONS: [Question; 8] = [
    CLIENT, CAPABILITY, STATUS, EVIDENCE, SHOWS, QUOTE, VERSION, NOTES,
];

/// One answer: its text (trimmed; empty when not given) and the line of the form it starts
/// on (its heading's line when it is empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Answer {
    pub text: String,
    pub line: usize,
}

/// The form's answers, by question.
#[derive(Debug, Clone, Default)]
pub(crate) struct Answers {
    answers: Vec<(Question, Answer)>,
}

impl Answers {
    /// The answer to `question` (empty when it was not asked or left empty).
    pub fn get(&self, question: Question) -> Answer {
        (self.answers.iter())
            .find(|(q, _)| *q == question)
            .map(|(_, a)| a.clone())
            .unwrap_or_default()
    }
}

/// Reads `body` into its answers (the first, where a question is answered twice), and every
/// problem found in it.
pub(crate) fn read(body: &str, words: &crate::config::Vocabulary) -> (Answers, Vec<Problem>) {
    if body.len() > MAX_BODY_BYTES {
        let problem = vec![Problem::at(
            None,
            1,
            format!(
                "the form is {} bytes, more than the {MAX_BODY_BYTES} an issue form's answers \
                 take",
                body.len()
            ),
            "shorten the answers (notes take at most 2,000 characters)",
        )];
        return (Answers::default(), problem);
    }
    let body = body.strip_prefix('\u{feff}').unwrap_or(body);
    let mut problems = Vec::new();
    let mut sections: Vec<(Question, usize, Vec<&str>)> = Vec::new();
    let mut before = false;
    for (n, line) in body.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let number = n + 1;
        if let Some(label) = line.strip_prefix("### ") {
            let label = label.trim();
            match QUESTIONS.iter().find(|q| q.is(label, words)) {
                Some(q) if sections.iter().any(|(s, _, _)| s == q) => {
                    problems.push(Problem::at(
                        Some(*q),
                        number,
                        format!("`### {}` appears twice", q.label),
                        "answer each question once: edit the issue and remove the second one",
                    ));
                    sections.push((*q, number, Vec::new()));
                }
                Some(q) => sections.push((*q, number, Vec::new())),
                None => problems.push(Problem::at(
                    None,
                    number,
                    format!(
                        "`### {}` is not a question of the form",
                        crate::terminal::escape(&clip(label, 80))
                    ),
                    &format!(
                        "the form asks: {}; an answer may not hold a line that starts with \
                         `### `",
                        asked()
                    ),
                )),
            }
            continue;
        }
        match sections.last_mut() {
            Some((_, _, lines)) => lines.push(line),
            None => before |= !line.trim().is_empty(),
        }
    }
    if before {
        problems.push(Problem::at(
            None,
            1,
            "text before the first `### ` question".to_string(),
            "file the report with the \"Report support\" issue form, which writes each answer \
             under its `### ` heading",
        ));
    }
    let mut answers = Answers::default();
    for (question, heading, lines) in sections {
        if answers.answers.iter().any(|(q, _)| *q == question) {
            continue;
        }
        let first = lines.iter().position(|l| !l.trim().is_empty());
        let text = lines.join("\n").trim().to_string();
        let text = match text == NO_RESPONSE {
            true => String::new(),
            false => text,
        };
        let line = first.map_or(heading, |f| heading + 1 + f);
        if text.chars().count() > question.max_chars {
            problems.push(Problem::at(
                Some(question),
                line,
                format!(
                    "the answer is {} characters long, more than the {} it takes",
                    text.chars().count(),
                    question.max_chars
                ),
                "shorten it",
            ));
            continue;
        }
        answers.answers.push((question, Answer { text, line }));
    }
    for question in QUESTIONS.iter().filter(|q| q.required) {
        if answers.get(*question).text.is_empty()
            && !problems.iter().any(|p| p.question == Some(*question))
        {
            problems.push(Problem::at(
                Some(*question),
                answers.get(*question).line.max(1),
                "is not answered".to_string(),
                "every report needs a client, a capability, a status and an evidence URL",
            ));
        }
    }
    (answers, problems)
}

/// The form's questions, by label, in order (as the issue form written by
/// `fieldnotes workflows` asks them).
fn asked() -> String {
    QUESTIONS
        .iter()
        .map(|q| q.label)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `text` cut to `n` characters, with `…` when it was longer.
pub(crate) fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_under_their_headings() {
        let body = "### Client\r\n\r\ncline\r\n\r\n### Capability\r\n\r\ntools.list\r\n\r\n\
                    ### Status\r\n\r\nyes\r\n\r\n### Evidence URL\r\n\r\nhttps://x.test/a\r\n\r\n\
                    ### Notes\r\n\r\n_No response_\r\n";
        let (answers, problems) = read(body, &crate::config::Vocabulary::default());
        assert_eq!(problems, []);
        assert_eq!(answers.get(CLIENT).text, "cline");
        assert_eq!(answers.get(CAPABILITY).line, 7);
        assert_eq!(answers.get(NOTES).text, "");
        assert_eq!(answers.get(VERSION), Answer::default());
    }

    #[test]
    fn unknown_duplicated_and_missing_headings_are_problems() {
        let body = "### Client\n\ncline\n\n### Client\n\nzed\n\n### Script\n\nx\n";
        let (_, problems) = read(body, &crate::config::Vocabulary::default());
        let says: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
        assert!(says.iter().any(|s| s.contains("appears twice")), "{says:?}");
        assert!(says.iter().any(|s| s.contains("`### Script`")), "{says:?}");
        assert!(
            problems.iter().any(|p| p.question == Some(STATUS)),
            "{says:?}"
        );
    }
}
