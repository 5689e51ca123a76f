//! Highlighted blocks kept on disk across builds and `serve` sessions, one file per block
//! under `<cache dir>/highlight/`, named by a hash of the highlighter's id, the language and
//! the text. Safe to delete at any time. An entry is never trusted blindly: it must name the
//! same highlighter, language and text, and its HTML must be nothing but `hl-` spans around
//! exactly that text, escaped — otherwise it is ignored and the block highlighted again.
//!
//! The folder is capped ([`DEFAULT_MAX_BYTES`], or `$FIELDNOTES_CACHE_MAX_BYTES`): once a
//! process has written a quarter of the cap, the entries used least recently (a hit renews
//! an entry's time) are removed until the folder holds three quarters of it.

use super::highlighter_id;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

/// The first line of every entry; a new layout gets a new number.
const MAGIC: &str = "fieldnotes-highlight 1";

/// The most bytes the `highlight/` folder keeps unless `$FIELDNOTES_CACHE_MAX_BYTES` says.
pub const DEFAULT_MAX_BYTES: u64 = 512 * 1024 * 1024;

/// Where highlighted blocks are kept, for one highlighter.
#[derive(Debug)]
pub struct DiskCache {
    dir: PathBuf,
    highlighter: String,
    /// The cap on the folder's size, in bytes.
    max_bytes: u64,
    /// Bytes this process wrote since it last trimmed the folder; `u64::MAX` before the
    /// first write, so the first write trims (a cache left over the cap by an older build).
    written: Mutex<u64>,
}

static DISK: OnceLock<DiskCache> = OnceLock::new();

/// Keeps highlighted blocks under `dir/highlight/` for the rest of the process (the first
/// call wins; commands call it once, before building). Without it blocks are cached in memory
/// only.
pub fn use_disk_cache(dir: &Path) {
    let _ = DISK.set(DiskCache::new(dir));
}

/// The cache folder commands use: `$FIELDNOTES_CACHE_DIR` (empty: none), else
/// `$XDG_CACHE_HOME/fieldnotes`, else `~/.cache/fieldnotes`.
pub fn default_dir() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = std::env::var_os("FIELDNOTES_CACHE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let xdg = var("XDG_CACHE_HOME").filter(|d| d.is_absolute());
    xdg.or_else(|| var("HOME").map(|home| home.join(".cache")))
        .map(|cache| cache.join("fieldnotes"))
}

/// The process's disk cache, if a command turned it on.
pub(super) fn disk() -> Option<&'static DiskCache> {
    DISK.get()
}

impl DiskCache {
    /// A cache under `dir/highlight/` for this build's highlighter.
    pub fn new(dir: &Path) -> DiskCache {
        DiskCache::for_highlighter(dir, highlighter_id())
    }

    fn for_highlighter(dir: &Path, highlighter: String) -> DiskCache {
        let max_bytes = std::env::var("FIELDNOTES_CACHE_MAX_BYTES")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(DEFAULT_MAX_BYTES);
        DiskCache {
            dir: dir.join("highlight"),
            highlighter,
            max_bytes,
            written: Mutex::new(u64::MAX),
        }
    }

    /// The tokens stored for `lang` and `code`, if an entry exists and checks out.
    pub fn get(&self, lang: &str, code: &str) -> Option<String> {
        let entry = std::fs::read(self.path(lang, code)).ok()?;
        let entry = String::from_utf8(entry).ok()?;
        let rest = entry.strip_prefix(MAGIC)?.strip_prefix('\n')?;
        let rest = rest
            .strip_prefix(self.highlighter.as_str())?
            .strip_prefix('\n')?;
        let rest = rest.strip_prefix(lang)?.strip_prefix('\n')?;
        let (len, rest) = rest.split_once('\n')?;
        if len.parse::<usize>().ok()? != code.len() {
            return None;
        }
        let tokens = rest.strip_prefix(code)?;
        if !tokens_of(tokens, code) {
            return None;
        }
        // Used now: the last entry trimming removes.
        if let Ok(file) = std::fs::File::options()
            .append(true)
            .open(self.path(lang, code))
        {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(tokens.to_string())
    }

    /// Stores the tokens of `lang` and `code`: written beside the entry, then renamed over it,
    /// so a reader never sees half an entry. Failures are ignored (the cache is an aid).
    pub fn put(&self, lang: &str, code: &str, tokens: &str) {
        let path = self.path(lang, code);
        let entry = format!(
            "{MAGIC}\n{}\n{lang}\n{}\n{code}{tokens}",
            self.highlighter,
            code.len()
        );
        // Through the one write layer, as every file fieldnotes writes.
        let Ok(rel) = path.strip_prefix(&self.dir) else {
            return;
        };
        let written = crate::beneath::Root::create(&self.dir)
            .and_then(|root| root.replace(rel, entry.as_bytes()));
        if written.is_err() {
            return;
        }
        self.wrote(entry.len() as u64);
    }

    /// Counts `bytes` written, and trims the folder when this process has written a quarter
    /// of the cap since it last did (or never did). One thread trims at a time.
    fn wrote(&self, bytes: u64) {
        let Ok(mut written) = self.written.try_lock() else {
            return;
        };
        *written = written.saturating_add(bytes);
        if *written > self.max_bytes / 4 {
            self.trim();
            *written = 0;
        }
    }

    /// Removes the entries used least recently until the folder holds at most three
    /// quarters of the cap (nothing when it is under the cap).
    fn trim(&self) {
        let mut entries: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        for folder in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(folder.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if let Ok(meta) = file.metadata() {
                    let time = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                    entries.push((time, meta.len(), file.path()));
                }
            }
        }
        let mut total: u64 = entries.iter().map(|(_, len, _)| len).sum();
        if total <= self.max_bytes {
            return;
        }
        entries.sort();
        let keep = self.max_bytes / 4 * 3;
        for (_, len, path) in entries {
            if total <= keep {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }

    /// `highlight/ab/cdef….html`: two folder levels keep folders small at 100k blocks.
    fn path(&self, lang: &str, code: &str) -> PathBuf {
        let key = [&self.highlighter, "\0", lang, "\0", code];
        let hex = format!(
            "{:016x}{:016x}",
            fnv1a(0xcbf2_9ce4_8422_2325, &key),
            fnv1a(0x6c62_272e_07bb_0142, &key)
        );
        self.dir.join(&hex[..2]).join(format!("{}.html", &hex[2..]))
    }
}

/// 64-bit FNV-1a over the parts, from `seed`: stable across Rust versions, unlike std's hasher.
fn fnv1a(seed: u64, parts: &[&str]) -> u64 {
    parts.iter().flat_map(|p| p.bytes()).fold(seed, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether `tokens` is `code` escaped as both engines escape it, inside nothing but balanced
/// `<span class="…">` and `</span>` tags: what the highlighter writes, and nothing a tampered
/// or damaged entry could smuggle into a page.
fn tokens_of(tokens: &str, code: &str) -> bool {
    const ENTITIES: [(&str, u8); 5] = [
        ("&lt;", b'<'),
        ("&gt;", b'>'),
        ("&amp;", b'&'),
        ("&#39;", b'\''),
        ("&quot;", b'"'),
    ];
    let (html, code) = (tokens.as_bytes(), code.as_bytes());
    let (mut i, mut c, mut depth) = (0, 0, 0usize);
    while i < html.len() {
        // Inside a character of more than one byte: none of the tags or entities below.
        let rest = tokens.get(i..).unwrap_or("");
        if rest.starts_with("</span>") {
            let Some(d) = depth.checked_sub(1) else {
                return false;
            };
            depth = d;
            i += "</span>".len();
        } else if let Some(class) = rest.strip_prefix("<span class=\"") {
            let Some(end) = class.find("\">") else {
                return false;
            };
            if class[..end].contains(['<', '>', '&', '"']) {
                return false;
            }
            depth += 1;
            i += "<span class=\"".len() + end + "\">".len();
        } else if html[i] == b'&' {
            let Some((entity, byte)) = ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) else {
                return false;
            };
            if code.get(c) != Some(byte) {
                return false;
            }
            i += entity.len();
            c += 1;
        } else {
            if matches!(html[i], b'<' | b'>' | b'"' | b'\'') || code.get(c) != Some(&html[i]) {
                return false;
            }
            i += 1;
            c += 1;
        }
    }
    depth == 0 && c == code.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "if x == \"<sse>\" & y:\n    return 'a'\n";

    #[test]
    fn tokens_of_code_with_characters_of_several_bytes() {
        let code = "a → é\n";
        assert!(tokens_of("<span class=\"hl-x\">a → é</span>\n", code));
        assert!(!tokens_of("<span class=\"hl-x\">a → è</span>\n", code));
    }

    fn cache() -> (tempfile::TempDir, DiskCache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::new(dir.path());
        (dir, cache)
    }

    fn highlighted() -> String {
        highlighted_of(CODE)
    }

    fn highlighted_of(code: &str) -> String {
        let html = super::super::code_block("python", code, usize::MAX);
        let start = html.find("<span").unwrap();
        html[start..html.rfind("</code>").unwrap()].to_string()
    }

    #[test]
    fn an_entry_is_read_back_as_written() {
        let (_dir, cache) = cache();
        let tokens = highlighted();
        assert!(tokens_of(&tokens, CODE), "{tokens}");
        assert_eq!(cache.get("python", CODE), None);
        cache.put("python", CODE, &tokens);
        assert_eq!(cache.get("python", CODE).as_deref(), Some(tokens.as_str()));
        assert_eq!(cache.get("py", CODE), None);
        assert_eq!(cache.get("python", "other"), None);
    }

    #[test]
    fn another_highlighter_does_not_read_the_entry() {
        let dir = tempfile::tempdir().unwrap();
        let old = DiskCache::for_highlighter(dir.path(), "syntect-0.1/old".to_string());
        old.put("python", CODE, &highlighted());
        assert_eq!(DiskCache::new(dir.path()).get("python", CODE), None);
    }

    #[test]
    fn a_damaged_or_tampered_entry_is_ignored() {
        let (_dir, cache) = cache();
        let tokens = highlighted();
        cache.put("python", CODE, &tokens);
        let path = cache.path("python", CODE);
        let good = std::fs::read_to_string(&path).unwrap();
        let bad = [
            good[..good.len() - 10].to_string(), // truncated
            good.replace("hl-keyword", "hl-keyword\"><script>x</script"), // markup smuggled in
            good.replacen("return", "retvrn", 2), // text not the block's
            good.replace("&quot;", "\""),        // unescaped
            format!("{good}</span>"),            // unbalanced
            good.replace(MAGIC, "fieldnotes-highlight 0"),
            String::from_utf8_lossy(&[0xff, 0xfe, 0x00]).into_owned(),
        ];
        for (i, entry) in bad.iter().enumerate() {
            std::fs::write(&path, entry).unwrap();
            assert_eq!(cache.get("python", CODE), None, "case {i}: {entry}");
        }
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(cache.get("python", CODE), None);
        std::fs::write(&path, &good).unwrap();
        assert_eq!(cache.get("python", CODE), Some(tokens));
    }

    #[test]
    fn the_folder_keeps_to_its_cap_and_drops_the_least_recently_used() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = DiskCache::new(dir.path());
        cache.max_bytes = 4000;
        let code = |i: usize| CODE.replace("'a'", &format!("'{i:04}'"));
        let tokens_for = |i: usize| highlighted_of(&code(i));
        cache.put("python", &code(0), &tokens_for(0));
        for i in 1..200 {
            // Entry 0 stays in use; the others are written once.
            assert!(
                cache.get("python", &code(0)).is_some(),
                "entry 0 kept at {i}"
            );
            cache.put("python", &code(i), &tokens_for(i));
        }
        let size: u64 = walkdir::WalkDir::new(dir.path())
            .into_iter()
            .flatten()
            .filter_map(|e| e.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()))
            .sum();
        assert!(size <= 4000, "the folder holds {size} bytes");
        assert!(cache.get("python", &code(0)).is_some());
        assert!(cache.get("python", &code(1)).is_none());
    }

    #[test]
    fn an_unwritable_cache_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let cache = DiskCache::new(&file);
        cache.put("python", CODE, &highlighted());
        assert_eq!(cache.get("python", CODE), None);
    }
}
