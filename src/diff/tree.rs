//! A git tree object's entries (`<mode> <name>\0<hash>` each), as `git cat-file --batch`
//! gives them: how the base revision's folders are listed, one object at a time, without a
//! recursive `ls-tree` whose output no limit bounds.

/// What a tree entry is, by its mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `40000`: a folder.
    Folder,
    /// `100644` or `100755`: a file.
    File,
    /// `120000`: a symlink (its target is the blob's text); never followed.
    Symlink,
    /// `160000` (a submodule's commit) or anything else: passed over.
    Other,
}

/// One entry of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub kind: Kind,
    /// The entry's name (bytes that are not UTF-8 replaced).
    pub name: String,
    /// The object's full hash, in hex.
    pub oid: String,
}

/// The entries of the tree whose content is `data`; `hash_bytes` is the repository's hash
/// length (20 for SHA-1, 32 for SHA-256: half the hex length of the tree's own name). An
/// entry cut short is an error naming where.
pub(crate) fn entries(data: &[u8], hash_bytes: usize) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let broken = || {
            format!(
                "a git tree is malformed at byte {}",
                data.len() - rest.len()
            )
        };
        let space = rest.iter().position(|&b| b == b' ').ok_or_else(broken)?;
        let nul = rest.iter().position(|&b| b == 0).ok_or_else(broken)?;
        if nul < space || rest.len() < nul + 1 + hash_bytes {
            return Err(broken());
        }
        let kind = match &rest[..space] {
            b"40000" | b"040000" => Kind::Folder,
            b"100644" | b"100755" | b"100664" => Kind::File,
            b"120000" => Kind::Symlink,
            _ => Kind::Other,
        };
        let name = String::from_utf8_lossy(&rest[space + 1..nul]).into_owned();
        let hash = &rest[nul + 1..nul + 1 + hash_bytes];
        let oid = hash.iter().map(|b| format!("{b:02x}")).collect();
        out.push(Entry { kind, name, oid });
        rest = &rest[nul + 1 + hash_bytes..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(mode: &str, name: &str, hash: u8) -> Vec<u8> {
        let mut bytes = format!("{mode} {name}\0").into_bytes();
        bytes.extend([hash; 20]);
        bytes
    }

    #[test]
    fn a_tree_lists_folders_files_and_links() {
        let data = [
            entry("100644", "a.md", 1),
            entry("40000", "sub", 2),
            entry("120000", "link.md", 3),
            entry("160000", "module", 4),
        ]
        .concat();
        let found = entries(&data, 20).expect("a tree");
        let kinds: Vec<(Kind, &str)> = found.iter().map(|e| (e.kind, e.name.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::File, "a.md"),
                (Kind::Folder, "sub"),
                (Kind::Symlink, "link.md"),
                (Kind::Other, "module")
            ]
        );
        assert_eq!(found[1].oid, "02".repeat(20));
        let cut = &data[..data.len() - 5];
        assert!(entries(cut, 20).is_err_and(|e| e.contains("malformed")));
    }
}
