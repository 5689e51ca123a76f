//! The "Report support" issue form for a site: its questions are those `fieldnotes submit`
//! reads ([`QUESTIONS`]: the labels GitHub writes as the body's `### ` headings, and which
//! must be answered), in the site's words, with its clients and capabilities to choose from.

use super::SiteWords;
use crate::submit::form::{
    Question, CAPABILITY, CLIENT, EVIDENCE, NOTES, QUESTIONS, QUOTE, SHOWS, STATUS, VERSION,
};

/// The label the form puts on reports, which the `submit` workflow runs for.
pub const LABEL: &str = "support-report";

/// The most options a dropdown is given; a longer list is asked as text instead.
const MAX_OPTIONS: usize = 100;

/// How a question is asked: GitHub's field type, what it says under the label, an example,
/// and the options to choose from (a dropdown when there are some).
struct Ask {
    kind: &'static str,
    description: String,
    placeholder: Option<String>,
    options: Vec<String>,
}

/// `text` as a YAML scalar that reads back as exactly that text in any YAML reader: a JSON
/// string, which YAML takes as a double-quoted scalar.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

/// A choice of `ids` (a dropdown), or text with the first as the example when there are none
/// or too many.
fn choose(ids: Vec<String>, what: &str, page: &str) -> Ask {
    let placeholder = ids.first().cloned();
    match ids.len() {
        1..=MAX_OPTIONS => Ask {
            kind: "dropdown",
            description: format!("The {what}, by the id its page has (/{page}/<id>)."),
            placeholder: None,
            options: ids,
        },
        _ => Ask {
            kind: "input",
            description: format!("The {what}'s id, as in its page's URL (/{page}/<id>)."),
            placeholder,
            options: Vec::new(),
        },
    }
}

fn ask(question: Question, words: &SiteWords) -> Ask {
    let text = |description: &str, placeholder: Option<&str>| Ask {
        kind: "input",
        description: description.to_string(),
        placeholder: placeholder.map(str::to_string),
        options: Vec::new(),
    };
    let ids = |list: &[(String, String)]| list.iter().map(|(id, _)| id.clone()).collect();
    match question {
        q if q == CLIENT => choose(ids(&words.clients), "client", "clients"),
        q if q == CAPABILITY => choose(ids(&words.capabilities), "capability", "capabilities"),
        q if q == STATUS => Ask {
            kind: "dropdown",
            description: "yes: it does it; partial: in part (say which part in the notes); \
                          no: it does not."
                .to_string(),
            placeholder: None,
            options: ["yes", "partial", "no"].map(str::to_string).to_vec(),
        },
        q if q == EVIDENCE => text(
            "One of: a permalink to the source lines at a commit (on GitHub, select the lines \
             and press `y`: https://github.com/<owner>/<repo>/blob/<commit>/<file>#L10-L20); a \
             page of the documentation; or an observation's id or page on this site. A link to \
             a branch (/blob/main/…) is refused: it moves.",
            Some("https://github.com/<owner>/<repo>/blob/<commit>/<file>#L10-L20"),
        ),
        q if q == SHOWS => text(
            "For a source URL, a few words on what the lines or page show (optional).",
            None,
        ),
        q if q == QUOTE => text(
            "For a documentation page (a URL without a commit): the sentence the status rests \
             on, copied from the page word for word. Required for such a page; the day it was \
             read is the day the report is taken in.",
            None,
        ),
        q if q == VERSION => text(
            "The version of the client you read or ran (optional).",
            None,
        ),
        q if q == NOTES => Ask {
            kind: "textarea",
            description: "How the client does it, in a sentence or two (one paragraph; no line \
                          may start with `###`)."
                .to_string(),
            placeholder: None,
            options: Vec::new(),
        },
        _ => text("", None),
    }
}

/// The form's YAML for the site whose words are `words`.
pub fn issue_form(words: &SiteWords) -> Result<String, String> {
    let title = words.title.trim();
    if title.is_empty() || title.chars().any(char::is_control) {
        return Err(
            "site.yaml's title is empty or holds a control character: the form is \
                    titled with it"
                .to_string(),
        );
    }
    let mut out = format!(
        "# \"Report support\" for {title}, written by `fieldnotes workflows`: a reader says \
         what a\n# client does with a capability, with one piece of evidence, and the \
         `submit` workflow\n# turns the answers into a pull request (`fieldnotes submit`). \
         The labels are the headings\n# `fieldnotes submit` reads; the client and capability \
         lists are the site's when this was\n# written: run `fieldnotes workflows --force` \
         after adding one.\n",
        title = title.replace('\n', " ")
    );
    out.push_str("name: Report support\n");
    out.push_str(&format!(
        "description: {}\n",
        quoted(&words.vocabulary.reword(&format!(
            "Tell {title} whether a client supports a capability, with a source line, a docs \
             page or an observation."
        )))
    ));
    out.push_str("title: \"Support report: \"\nlabels:\n");
    out.push_str(&format!("  - {LABEL}\nbody:\n"));
    out.push_str("  - type: markdown\n    attributes:\n      value: ");
    out.push_str(&quoted(&words.vocabulary.reword(&format!(
        "Thank you! A workflow reads this form, edits the client's support cell on {title} \
         and opens a pull request; it comments here with what lint says. A person reviews the \
         evidence before it is merged."
    ))));
    out.push('\n');
    for question in QUESTIONS {
        let ask = ask(question, words);
        let id = question.label.to_ascii_lowercase().replace(' ', "-");
        out.push_str(&format!("  - type: {}\n    id: {id}\n", ask.kind));
        out.push_str("    attributes:\n");
        let label = question.heading(&words.vocabulary);
        out.push_str(&format!("      label: {}\n", quoted(&label)));
        out.push_str(&format!(
            "      description: {}\n",
            quoted(&words.vocabulary.reword(&ask.description))
        ));
        if let Some(placeholder) = &ask.placeholder {
            out.push_str(&format!("      placeholder: {}\n", quoted(placeholder)));
        }
        if !ask.options.is_empty() {
            out.push_str("      options:\n");
            for option in &ask.options {
                out.push_str(&format!("        - {}\n", quoted(option)));
            }
        }
        out.push_str(&format!(
            "    validations:\n      required: {}\n",
            question.required
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(clients: usize) -> SiteWords {
        SiteWords {
            title: "Can I \"Quote\"? #1".to_string(),
            vocabulary: crate::config::Vocabulary::default(),
            clients: (0..clients)
                .map(|n| (format!("c{n}"), format!("C {n}")))
                .collect(),
            capabilities: vec![("a.b".to_string(), "A B".to_string())],
        }
    }

    #[test]
    fn the_form_asks_every_question_submit_reads_with_the_site_lists() {
        let text = issue_form(&words(2)).expect("a form");
        let form: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
        let body = form["body"].as_array().expect("body");
        let labels: Vec<&str> = (body.iter().skip(1))
            .map(|b| b["attributes"]["label"].as_str().expect("label"))
            .collect();
        let read: Vec<&str> = QUESTIONS.iter().map(|q| q.label).collect();
        assert_eq!(labels, read);
        assert_eq!(body[1]["type"], "dropdown");
        assert_eq!(
            body[1]["attributes"]["options"],
            serde_json::json!(["c0", "c1"])
        );
        assert_eq!(body[2]["attributes"]["options"], serde_json::json!(["a.b"]));
        assert!(form["description"]
            .as_str()
            .expect("text")
            .contains("Can I \"Quote\"? #1"));
    }

    #[test]
    fn a_long_list_is_asked_as_text() {
        let text = issue_form(&words(MAX_OPTIONS + 1)).expect("a form");
        let form: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
        assert_eq!(form["body"][1]["type"], "input");
        assert_eq!(form["body"][1]["attributes"]["placeholder"], "c0");
    }
}
