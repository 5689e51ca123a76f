//! The site linted in memory with the client file as the report would write it: the findings
//! that fall in the cell written (the rest of the site is as it was, and is not the report's
//! doing).

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::text_file::TextFile;
use std::ops::Range;
use std::path::Path;

/// Lints the site in `root` with the file at `relative` holding `text`: the findings whose
/// span meets `cell` (bytes of `text`), and the site's files (to print them with).
pub(crate) fn lint(
    root: &Path,
    relative: &Path,
    text: &str,
    cell: Range<usize>,
    today: chrono::NaiveDate,
) -> Result<(Vec<Diagnostic>, Vec<TextFile>)> {
    let mut site = crate::load::load(root)?;
    let Some(file) = site.files.iter().position(|f| f.path == relative) else {
        return Ok((Vec::new(), site.files));
    };
    site.files[file] = TextFile::new(relative.to_path_buf(), text.to_string());
    let index = crate::index::index(crate::parse::parse(site));
    let findings = crate::lint::lint(&index, today)?;
    let inside = |d: &Diagnostic| {
        d.span.file == file
            && d.span.start < cell.end.max(cell.start + 1)
            && d.span.end >= cell.start
    };
    let findings = findings.into_iter().filter(inside).collect();
    Ok((findings, index.files))
}
