//! `fieldnotes submit FORM`: a "Report support" issue form's body turned into the edit of a
//! client file's support cell, checked by lint, written in place (or, with `--dry-run`, only
//! shown).

use super::report::render_findings;
use super::Invocation;
use crate::cli::{Format, SubmitArgs};
use crate::error::{Error, Result};
use crate::provenance::bump::{self, Bump, FileBump};
use crate::submit::{self, form::MAX_BODY_BYTES};
use crate::terminal;
use std::io::{Read, Write};
use std::path::Path;

/// How many of a refused form's problems are printed: a hostile body of 64 KB can hold ten
/// thousand (a heading per line), which the workflow would quote into a comment.
const MAX_PROBLEMS_SHOWN: usize = 20;

pub fn submit(run: &Invocation, args: SubmitArgs) -> Result<u8> {
    let root = run.root()?;
    let today = crate::dates::today(args.today.as_deref())?;
    let body = read_form(&args.form)?;
    let shown = terminal::escape(&args.form.to_string_lossy()).into_owned();
    let submission = match submit::submit(root, &body, today)? {
        Ok(submission) => submission,
        Err(problems) => {
            for p in problems.iter().take(MAX_PROBLEMS_SHOWN) {
                let field = p.field().map(|f| format!("{f}: ")).unwrap_or_default();
                eprintln!("error: {shown}:{}: {field}{}", p.line, p.message);
                eprintln!("  help: {}", p.help);
            }
            if problems.len() > MAX_PROBLEMS_SHOWN {
                eprintln!(
                    "…and {} more problems, not shown (the first are enough to fix the form)",
                    problems.len() - MAX_PROBLEMS_SHOWN
                );
            }
            eprintln!(
                "the report was refused ({} problem{}); nothing was written",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            );
            return Ok(1);
        }
    };
    let s = &submission;
    let _ = std::io::stdout().write_all(s.diff().as_bytes());
    if !s.findings.is_empty() {
        let text = render_findings(run, root, &s.findings, &s.files, Format::Human);
        let _ = std::io::stdout().write_all(text.as_bytes());
    }
    let change = match &s.was {
        Some(was) => format!("{was} → {}", s.status),
        None => format!("new cell, {}", s.status),
    };
    let cited = match s.already_cited {
        true => " (already cited)",
        false => "",
    };
    let what = format!(
        "{}: support cell {} / {}: {change}; {}{cited}",
        s.path, s.client, s.capability, s.evidence
    );
    if s.has_errors() {
        eprintln!("{what}");
        eprintln!("refused: lint finds errors in the cell (above); nothing was written");
        return Ok(1);
    }
    if args.dry_run {
        run.say(&format!(
            "{what}; lint: {}; dry run, nothing written",
            lint_line(s)
        ));
        return Ok(0);
    }
    let plan = Bump {
        files: vec![FileBump {
            path: s.path.clone(),
            relative: s.relative.clone(),
            before: s.before.clone(),
            after: s.after.clone(),
            sources: 1,
        }],
        ..Bump::default()
    };
    bump::write(root, &plan)?;
    run.say(&format!("{what}; lint: {}; written", lint_line(s)));
    Ok(0)
}

/// `clean`, or how many warnings and infos lint found in the cell.
fn lint_line(s: &submit::Submission) -> String {
    match s.findings.len() {
        0 => "no findings in the cell".to_string(),
        n => format!(
            "{n} finding{} in the cell (above)",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// The form's text, from a file or (`-`) standard input, at most [`MAX_BODY_BYTES`] (and one
/// more, so that a longer one is refused by the form's reader with its size).
fn read_form(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    let limit = (MAX_BODY_BYTES + 1) as u64;
    let read = match path == Path::new("-") {
        true => std::io::stdin().take(limit).read_to_end(&mut bytes),
        false => std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes)),
    };
    read.map_err(|e| Error::io(path, "read the form", e))?;
    if bytes.len() > MAX_BODY_BYTES {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    String::from_utf8(bytes).map_err(|e| Error::Usage {
        message: format!(
            "{}: the form is not UTF-8 text (byte {}); save the issue's body as UTF-8",
            terminal::escape(&path.to_string_lossy()),
            e.utf8_error().valid_up_to()
        ),
    })
}
