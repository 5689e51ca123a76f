//! Lists of self-reports (`content/lists/<id>.yaml`) read into [`ReportList`]s and one
//! [`Report`] per claim: each claim a support cell whose only source is the list's line at
//! its pinned commit, so verification, drift and pages treat it as any other pinned source.

use super::yaml::{self, Node, NodeKind};
use crate::model::{ListProblem, Report, ReportList, SourcePath, SourceRef, Spanned, SupportCell};
use crate::text_file::{FileId, Span, TextFile};

/// The suffix a list writes after a feature it reports only in part.
const PARTIAL: &str = " (partial)";

/// Reads the list in `files[file]`, appending its claims to `reports` (the list will be at
/// position `list` of `content.lists`).
pub fn read(source: &TextFile, file: FileId, list: usize, reports: &mut Vec<Report>) -> ReportList {
    let id = (source.path.file_stem()).map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let mut out = ReportList {
        file,
        id,
        title: None,
        removed_by: None,
        features: Vec::new(),
        problems: Vec::new(),
    };
    let whole = Span::new(file, 0, 0);
    let root = match yaml::parse(source, file, 0, source.text.len()) {
        Ok(node) => node,
        Err(e) => {
            out.problems
                .push(problem(e.span, e.message, "fix the YAML".into()));
            return out;
        }
    };
    let NodeKind::Map(entries) = &root.kind else {
        let help = "write the list as a mapping: title, url, commit, path, features, reports";
        out.problems.push(problem(
            whole,
            "the list is not a mapping".into(),
            help.into(),
        ));
        return out;
    };
    let get = |key: &str| entries.iter().find(|(k, _)| k.scalar() == Some(key));
    let text = |key: &str| get(key).and_then(|(_, v)| spanned(v));
    out.title = text("title");
    out.removed_by = text("removedBy");
    let (url, commit, path) = (text("url"), text("commit"), text("path"));
    for (key, value) in [("url", &url), ("commit", &commit), ("path", &path)] {
        if value.is_none() {
            let help = format!("add `{key}:`: a list is a file at a commit of a repository");
            out.problems
                .push(problem(whole, format!("the list has no `{key}`"), help));
        }
    }
    if let Some((_, NodeKind::Map(features))) = get("features").map(|(_, v)| (v, &v.kind)) {
        out.features = (features.iter())
            .filter_map(|(k, v)| Some((spanned(k)?, spanned(v)?)))
            .collect();
    }
    let Some((_, reports_node)) = get("reports") else {
        return out;
    };
    let NodeKind::Map(clients) = &reports_node.kind else {
        let help = "write `reports:` as a map from client id to {name, line, supports}";
        out.problems.push(problem(
            reports_node.span,
            "`reports` is not a mapping".into(),
            help.into(),
        ));
        return out;
    };
    let (Some(url), Some(commit), Some(path)) = (url, commit, path) else {
        return out;
    };
    for (client_key, entry) in clients {
        let Some(client) = spanned(client_key) else {
            continue;
        };
        let NodeKind::Map(fields) = &entry.kind else {
            let help = "write `{name: …, line: N, supports: [Feature, …]}`";
            out.problems.push(problem(
                entry.span,
                format!("the report of {} is not a mapping", client.value),
                help.into(),
            ));
            continue;
        };
        let field = |key: &str| fields.iter().find(|(k, _)| k.scalar() == Some(key));
        let name = field("name").and_then(|(_, v)| spanned(v));
        let line =
            field("line").and_then(|(_, v)| Some((v.scalar()?.parse::<usize>().ok()?, v.span)));
        let Some((line, line_span)) = line.filter(|(l, _)| *l >= 1) else {
            let help = "give the number of the line that states the client's features";
            out.problems.push(problem(
                entry.span,
                format!("the report of {} has no `line`", client.value),
                help.into(),
            ));
            continue;
        };
        let fixed = out.removed_by.is_some();
        let source = source_of(&url, &commit, &path, (line, line_span), entry.span, fixed);
        let supports = match field("supports").map(|(_, v)| &v.kind) {
            Some(NodeKind::Seq(items)) => items.iter().filter_map(spanned).collect(),
            _ => Vec::new(),
        };
        for written in supports {
            let (feature, status) = match written.value.strip_suffix(PARTIAL) {
                Some(base) => (base.to_string(), "partial"),
                None => (written.value.clone(), "yes"),
            };
            let Some((_, capability)) = out.features.iter().find(|(f, _)| f.value == feature)
            else {
                let help = format!(
                    "add `{feature}: <capability id>` to the list's `features`, the capability \
                     the feature plainly names"
                );
                out.problems.push(problem(
                    written.span,
                    format!("feature {feature:?} is not in the list's `features`"),
                    help,
                ));
                continue;
            };
            let feature = Spanned::new(feature, written.span);
            let cell = SupportCell {
                capability: Spanned::new(capability.value.clone(), written.span),
                span: entry.span,
                status: Some(Spanned::new(status.to_string(), written.span)),
                notes: None,
                research: Vec::new(),
                sources: vec![source.clone()],
                last_verified: None,
                version: None,
                observations: Vec::new(),
                reason: None,
            };
            reports.push(Report {
                list,
                client: client.clone(),
                name: name.clone(),
                feature,
                cell,
            });
        }
    }
    out
}

/// The list's line as a pinned source: the repository, the commit, `<path>:<line>`; `fixed`
/// when the list is read at its last version.
fn source_of(
    url: &Spanned<String>,
    commit: &Spanned<String>,
    path: &Spanned<String>,
    (line, line_span): (usize, Span),
    entry: Span,
    fixed: bool,
) -> SourceRef {
    let lines = crate::model::LineRange::new(line, line)
        .into_iter()
        .collect();
    SourceRef {
        span: entry,
        url: Some(url.clone()),
        title: None,
        commit: Some(commit.clone()),
        path: Some(Spanned::new(format!("{}:{line}", path.value), line_span)),
        location: Some(Ok(SourcePath {
            file: path.value.clone(),
            lines,
        })),
        date: None,
        // A list removed upstream is read at its last version on purpose: `sources bump`
        // leaves it there.
        pin: fixed.then(|| Spanned::new(crate::model::PIN_FIXED.to_string(), commit.span)),
        url_pin: None,
        quote: None,
        retrieved: None,
    }
}

fn spanned(node: &Node) -> Option<Spanned<String>> {
    node.scalar()
        .map(|s| Spanned::new(s.to_string(), node.span))
}

fn problem(span: Span, message: String, help: String) -> ListProblem {
    ListProblem {
        span,
        message,
        help,
    }
}
